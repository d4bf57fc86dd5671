// Grading test of hgemm step 02 (WMMA on shared-memory tiles, several warps
// per block, each with a warp tile). Built twice: against
// lessons/hgemm/02_wmma_shared/kernel.cu (suite "grade") and against the
// reference solution (suite "solutions").
#include "hgemm/helpers.h"

COURSE_SOLUTION_LAUNCHER(hgemm, step02_wmma_shared)
COURSE_SOLUTION_LAUNCHER(hgemm, step02_wmma_shared_attributes)

TEST_CASE("step 02 computes C = A * B at every grading shape") {
    hgemm::testing::check_every_shape(hgemm::step02_wmma_shared, 200);
}

TEST_CASE("step 02 is right on matrices that do not start on a 32-byte boundary") {
    hgemm::testing::check_misaligned(hgemm::step02_wmma_shared, 210);
}

TEST_CASE("step 02 gives each warp a warp tile of at least 4 fragments, several warps per block") {
    const auto check = hgemm::testing::check_warp_tiles(hgemm::step02_wmma_shared);
    MESSAGE(check.what);
    CHECK_MESSAGE(check.ok, check.what);
}

TEST_CASE("step 02 stages the block's tiles of A and B in shared memory") {
    const auto check = hgemm::testing::check_shared_tiles(hgemm::step02_wmma_shared);
    MESSAGE(check.what);
    CHECK_MESSAGE(check.ok, check.what);
}

TEST_CASE("step 02 keeps its fragments and accumulators in registers") {
    hgemm::testing::check_registers_only(hgemm::step02_wmma_shared_attributes());
}

TEST_CASE("step 02 runs at least 0.85x as fast as the reference solution of step 02") {
    if (!course::testing::timing_is_meaningful()) return;
    // The course's speed rule (tests/speed_rule.h).
    hgemm::testing::check_speed(
        {{1, "", hgemm::step01_wmma, hgemm::step01_wmma_attributes},
         {2, "", hgemm::solution::step02_wmma_shared, hgemm::solution::step02_wmma_shared_attributes},
         {2, "", hgemm::step02_wmma_shared, hgemm::step02_wmma_shared_attributes}},
        "4096",
        "the block's tiles of A and B copied into shared memory once per step of K (16-byte copies where they fit), "
        "padded rows, and each warp's 4 x 2 accumulators fed by fragments loaded from shared memory; the README's "
        "Nsight Compute command shows the tensor pipe's use, the stalls and the bank conflicts");
}
