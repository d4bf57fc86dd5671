// Grading test of matmul step 02 (one thread per output, coalesced). Built
// twice: against lessons/matmul/02_coalesced/kernel.cu (suite "grade") and
// against the reference solution (suite "solutions").
#include "matmul/helpers.h"

COURSE_SOLUTION_LAUNCHER(matmul, step02_coalesced)
COURSE_SOLUTION_LAUNCHER(matmul, step02_coalesced_attributes)

TEST_CASE("step 02 computes C = A * B at every grading shape") {
    matmul::testing::check_every_shape(matmul::step02_coalesced, 200);
}

TEST_CASE("step 02 runs at least 0.85x as fast as the reference solution of step 02") {
    if (!course::testing::timing_is_meaningful()) return;
    // The course's speed rule (tests/speed_rule.h); what the untouched starter
    // measures in it is in lessons/matmul/README.md's starters table.
    matmul::testing::check_speed(
        {{1, "", matmul::step01_naive, matmul::step01_naive_attributes},
         {2, "", matmul::solution::step02_coalesced, matmul::solution::step02_coalesced_attributes},
         {2, "", matmul::step02_coalesced, matmul::step02_coalesced_attributes}},
        "2048",
        "which thread index walks along a row of C: threadIdx.x must map to the column, so that a warp's loads of "
        "B and stores of C are coalesced; the README's Nsight Compute command counts the sectors per request");
}
