// Grading test of matmul step 03 (shared-memory tiles, 16 x 16). Built twice:
// against lessons/matmul/03_shared_tiles/kernel.cu (suite "grade") and
// against the reference solution (suite "solutions").
#include "matmul/helpers.h"
#include "matmul/structure.h"

COURSE_SOLUTION_LAUNCHER(matmul, step03_shared_tiles)
COURSE_SOLUTION_LAUNCHER(matmul, step03_shared_tiles_attributes)

TEST_CASE("step 03 computes C = A * B at every grading shape") {
    matmul::testing::check_every_shape(matmul::step03_shared_tiles, 300);
}

TEST_CASE("step 03 stages its tiles in shared memory") {
    // Two 16 x 16 tiles of floats: 2 KiB per block, static or dynamic.
    constexpr long long kMinimumSharedBytes = 2 * 16 * 16 * sizeof(float);
    MESSAGE(matmul::testing::describe(matmul::step03_shared_tiles_attributes()));
    const auto check = matmul::testing::check_shared_at_least(matmul::step03_shared_tiles, kMinimumSharedBytes,
                                                              "two 16 x 16 float tiles");
    CHECK_MESSAGE(check.ok, check.what);
}

TEST_CASE("step 03 runs at least 0.85x as fast as the reference solution of step 03") {
    if (!course::testing::timing_is_meaningful()) return;
    // The course's speed rule (tests/speed_rule.h); what the untouched starter
    // measures in it is in lessons/matmul/README.md's starters table.
    matmul::testing::check_speed(
        {{2, "", matmul::step02_coalesced, matmul::step02_coalesced_attributes},
         {3, "", matmul::solution::step03_shared_tiles, matmul::solution::step03_shared_tiles_attributes},
         {3, "", matmul::step03_shared_tiles, matmul::step03_shared_tiles_attributes}},
        "2048",
        "the 16 x 16 tiles of A and B staged in shared memory, each element loaded once per tile, with a "
        "__syncthreads() before and after the inner product; the README's Nsight Compute command counts the global "
        "and shared loads");
}
