// Grading test of matmul step 05 (2D register blocking). Built twice: against
// lessons/matmul/05_2d_blocking/kernel.cu (suite "grade") and against the
// reference solution (suite "solutions").
#include "matmul/helpers.h"

COURSE_SOLUTION_LAUNCHER(matmul, step05_2d_blocking)
COURSE_SOLUTION_LAUNCHER(matmul, step05_2d_blocking_attributes)

TEST_CASE("step 05 computes C = A * B at every grading shape") {
    matmul::testing::check_every_shape(matmul::step05_2d_blocking, 500);
}

TEST_CASE("step 05 keeps its 8 x 8 partial sums in registers") {
    matmul::testing::check_registers_only(matmul::step05_2d_blocking_attributes());
}

TEST_CASE("step 05 runs at least 0.85x as fast as the reference solution of step 05") {
    if (!course::testing::timing_is_meaningful()) return;
    // The course's speed rule (tests/speed_rule.h); what the untouched starter
    // measures in it is in lessons/matmul/README.md's starters table.
    matmul::testing::check_speed(
        {{4, "", matmul::step04_1d_blocking, matmul::step04_1d_blocking_attributes},
         {5, "", matmul::solution::step05_2d_blocking, matmul::solution::step05_2d_blocking_attributes},
         {5, "", matmul::step05_2d_blocking, matmul::step05_2d_blocking_attributes}},
        "4096",
        "each thread computing TM x TN outputs from register fragments of A and B, its 8 x 8 partial sums in "
        "registers (no local memory); the README's Nsight Compute command counts the shared loads per FMA");
}
