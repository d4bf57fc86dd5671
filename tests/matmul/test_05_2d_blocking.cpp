// Grading test of matmul step 05 (2D register blocking). Built twice: against
// lessons/matmul/05_2d_blocking/kernel.cu (suite "grade") and against the
// reference solution (suite "solutions").
#include "grading.h"

TEST_CASE("step 05 computes C = A * B at every grading shape") {
    matmul::testing::check_every_shape(matmul::step05_2d_blocking, 500);
}

TEST_CASE("step 05 keeps its 8 x 8 partial sums in registers") {
    matmul::testing::check_registers_only(matmul::step05_2d_blocking_attributes());
}

TEST_CASE("step 05 is faster than step 04") {
    if (!course::testing::timing_is_meaningful()) return;
    // 16 shared-memory reads per 64 multiply-adds instead of 9 per 8.
    // Threshold and the figures it comes from:
    // lessons/matmul/05_2d_blocking/README.md.
    constexpr double kMinimumSpeedupOverStep04 = 1.30;
    const auto race = matmul::testing::race(
        {4, "step 04 (solution)", matmul::step04_1d_blocking, matmul::step04_1d_blocking_attributes},
        {5, "step 05", matmul::step05_2d_blocking, matmul::step05_2d_blocking_attributes}, "4096");
    matmul::testing::check_speedup(race, kMinimumSpeedupOverStep04);
}
