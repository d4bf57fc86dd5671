// Grading test of matmul step 04 (1D register blocking). Built twice: against
// lessons/matmul/04_1d_blocking/kernel.cu (suite "grade") and against the
// reference solution (suite "solutions").
#include "grading.h"

TEST_CASE("step 04 computes C = A * B at every grading shape") {
    matmul::testing::check_every_shape(matmul::step04_1d_blocking, 400);
}

TEST_CASE("step 04 keeps its partial sums in registers") {
    // An array indexed by a loop counter the compiler cannot unroll lands in
    // local memory (per-thread DRAM, cached), not in registers.
    matmul::testing::check_registers_only(matmul::step04_1d_blocking_attributes());
}

TEST_CASE("step 04 is faster than step 03") {
    if (!course::testing::timing_is_meaningful()) return;
    // 9 shared-memory reads per 8 multiply-adds instead of 2 per 1.
    // Threshold and the figures it comes from:
    // lessons/matmul/04_1d_blocking/README.md.
    constexpr double kMinimumSpeedupOverStep03 = 1.50;
    const auto race = matmul::testing::race(
        {3, "step 03 (solution)", matmul::step03_shared_tiles, matmul::step03_shared_tiles_attributes},
        {4, "step 04", matmul::step04_1d_blocking, matmul::step04_1d_blocking_attributes}, "2048");
    matmul::testing::check_speedup(race, kMinimumSpeedupOverStep03);
}
