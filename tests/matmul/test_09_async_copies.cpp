// Grading test of matmul step 09 (asynchronous copies, three stages). Built
// twice: against lessons/matmul/09_async_copies/kernel.cu (suite "grade") and
// against the reference solution (suite "solutions").
#include "matmul/helpers.h"
#include "matmul/stages.h"

COURSE_SOLUTION_LAUNCHER(matmul, step09_async_copies)
COURSE_SOLUTION_LAUNCHER(matmul, step09_async_copies_attributes)

TEST_CASE("step 09 computes C = A * B at every grading shape") {
    matmul::testing::check_every_shape(matmul::step09_async_copies, 900);
}

TEST_CASE("step 09 is right on matrices that do not start on a 16-byte boundary") {
    matmul::testing::check_misaligned(matmul::step09_async_copies, 910);
}

TEST_CASE("step 09 keeps its partial sums in registers") {
    matmul::testing::check_registers_only(matmul::step09_async_copies_attributes());
}

TEST_CASE("step 09 copies with cp.async and waits with a group of copies still in flight (its machine code)") {
    // At a shape for each of the three kernels (tests/matmul/stages.h).
    const matmul::testing::StagesCheck check =
        matmul::testing::check_copies_in_flight(matmul::step09_async_copies, COURSE_GRADED_LIBRARY);
    MESSAGE(check.what);
    CHECK_MESSAGE(check.ok, check.what);
}

TEST_CASE("step 09 runs at least 0.85x as fast as the reference solution of step 09") {
    if (!course::testing::timing_is_meaningful()) return;
    // The course's speed rule (tests/speed_rule.h); what the untouched starter
    // measures in it is in lessons/matmul/README.md's starters table.
    matmul::testing::check_speed(
        {{8, "", matmul::step08_warp_tiling, matmul::step08_warp_tiling_attributes},
         {9, "", matmul::solution::step09_async_copies, matmul::solution::step09_async_copies_attributes},
         {9, "", matmul::step09_async_copies, matmul::step09_async_copies_attributes}},
        "4096",
        "the copies (cp.async straight into shared memory, no registers in between), the three stages (two tiles "
        "in flight while one is computed) and the order of a phase (wait, barrier, copy, compute); the README's "
        "Nsight Compute command shows the stall reasons");
}
