// Grading test of matmul step 01 (one thread per output, uncoalesced). Built
// twice: against lessons/matmul/01_naive/kernel.cu (suite "grade") and
// against the reference solution (suite "solutions").
//
// Step 01 is slow on purpose (step 02 is about why): its speed rule only asks
// that it be not much slower than the reference's naive kernel.
#include "matmul/helpers.h"

COURSE_SOLUTION_LAUNCHER(matmul, step01_naive)
COURSE_SOLUTION_LAUNCHER(matmul, step01_naive_attributes)

TEST_CASE("step 01 computes C = A * B at every grading shape") {
    matmul::testing::check_every_shape(matmul::step01_naive, 100);
}

TEST_CASE("step 01 runs at least 0.85x as fast as the reference solution of step 01") {
    if (!course::testing::timing_is_meaningful()) return;
    // The course's speed rule (tests/speed_rule.h); what the untouched starter
    // measures in it is in lessons/matmul/README.md's starters table.
    matmul::testing::check_speed(
        {{1, "", matmul::solution::step01_naive, matmul::solution::step01_naive_attributes},
         {1, "", matmul::step01_naive, matmul::step01_naive_attributes}},
        "2048",
        "one thread per element of C, each reading a row of A and a column of B straight from global memory; the "
        "README's Nsight Compute command counts the sectors per request");
}
