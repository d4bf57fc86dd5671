// Grading test of matmul step 04 (1D register blocking). Built twice: against
// lessons/matmul/04_1d_blocking/kernel.cu (suite "grade") and against the
// reference solution (suite "solutions").
#include "matmul/helpers.h"

COURSE_SOLUTION_LAUNCHER(matmul, step04_1d_blocking)
COURSE_SOLUTION_LAUNCHER(matmul, step04_1d_blocking_attributes)

TEST_CASE("step 04 computes C = A * B at every grading shape") {
    matmul::testing::check_every_shape(matmul::step04_1d_blocking, 400);
}

TEST_CASE("step 04 keeps its partial sums in registers") {
    // An array indexed by a loop counter the compiler cannot unroll lands in
    // local memory (per-thread DRAM, cached), not in registers.
    matmul::testing::check_registers_only(matmul::step04_1d_blocking_attributes());
}

TEST_CASE("step 04 runs at least 0.85x as fast as the reference solution of step 04") {
    if (!course::testing::timing_is_meaningful()) return;
    // The course's speed rule (tests/speed_rule.h); what the untouched starter
    // measures in it is in lessons/matmul/README.md's starters table.
    matmul::testing::check_speed(
        {{3, "", matmul::step03_shared_tiles, matmul::step03_shared_tiles_attributes},
         {4, "", matmul::solution::step04_1d_blocking, matmul::solution::step04_1d_blocking_attributes},
         {4, "", matmul::step04_1d_blocking, matmul::step04_1d_blocking_attributes}},
        "2048",
        "each thread computing a column of TM outputs, with its partial sums in registers and B's element reused "
        "from a register; the README's Nsight Compute command counts the shared loads per FMA");
}
