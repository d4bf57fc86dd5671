// Grading test of matmul step 06 (16-byte loads, A transposed in shared
// memory). Built twice: against lessons/matmul/06_vector_loads/kernel.cu
// (suite "grade") and against the reference solution (suite "solutions").
#include "grading.h"

TEST_CASE("step 06 computes C = A * B at every grading shape") {
    matmul::testing::check_every_shape(matmul::step06_vector_loads, 600);
}

TEST_CASE("step 06 is right on matrices that do not start on a 16-byte boundary") {
    matmul::testing::check_misaligned(matmul::step06_vector_loads, 610);
}

TEST_CASE("step 06 keeps its partial sums in registers") {
    matmul::testing::check_registers_only(matmul::step06_vector_loads_attributes());
}

TEST_CASE("step 06 is faster than step 05") {
    if (!course::testing::timing_is_meaningful()) return;
    // A quarter of the global load instructions, half the shared-memory read
    // instructions. Threshold and the figures it comes from:
    // lessons/matmul/06_vector_loads/README.md.
    constexpr double kMinimumSpeedupOverStep05 = 1.10;
    const auto race = matmul::testing::race(
        {5, "step 05 (solution)", matmul::step05_2d_blocking, matmul::step05_2d_blocking_attributes},
        {6, "step 06", matmul::step06_vector_loads, matmul::step06_vector_loads_attributes}, "4096");
    matmul::testing::check_speedup(race, kMinimumSpeedupOverStep05);
}
