// Grading test of matmul step 08 (warp tiling, double-buffered). Built twice:
// against lessons/matmul/08_warp_tiling/kernel.cu (suite "grade") and against
// the reference solution (suite "solutions").
#include "matmul/helpers.h"

COURSE_SOLUTION_LAUNCHER(matmul, step08_warp_tiling)
COURSE_SOLUTION_LAUNCHER(matmul, step08_warp_tiling_attributes)

TEST_CASE("step 08 computes C = A * B at every grading shape") {
    matmul::testing::check_every_shape(matmul::step08_warp_tiling, 800);
}

TEST_CASE("step 08 is right on matrices that do not start on a 16-byte boundary") {
    matmul::testing::check_misaligned(matmul::step08_warp_tiling, 810);
}

TEST_CASE("step 08 keeps its partial sums and its prefetched tiles in registers") {
    matmul::testing::check_registers_only(matmul::step08_warp_tiling_attributes());
}

TEST_CASE("step 08 runs at least 0.85x as fast as the reference solution of step 08") {
    if (!course::testing::timing_is_meaningful()) return;
    // The course's speed rule (tests/speed_rule.h); the figures measured with it
    // are in lessons/matmul/08_warp_tiling/README.md.
    matmul::testing::check_speed(
        {{7, "", matmul::step07_bank_conflicts, matmul::step07_bank_conflicts_attributes},
         {8, "", matmul::solution::step08_warp_tiling, matmul::solution::step08_warp_tiling_attributes},
         {8, "", matmul::step08_warp_tiling, matmul::step08_warp_tiling_attributes}},
        "4096",
        "the warp tile (each warp a contiguous block of C), the double buffer (the next tiles loaded into "
        "registers while this one is computed) and no local memory; the README's Nsight Compute command shows the "
        "stall reasons");
}
