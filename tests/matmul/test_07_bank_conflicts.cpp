// Grading test of matmul step 07 (no shared-memory bank conflicts). Built
// twice: against lessons/matmul/07_bank_conflicts/kernel.cu (suite "grade")
// and against the reference solution (suite "solutions").
#include "grading.h"

TEST_CASE("step 07 computes C = A * B at every grading shape") {
    matmul::testing::check_every_shape(matmul::step07_bank_conflicts, 700);
}

TEST_CASE("step 07 is right on matrices that do not start on a 16-byte boundary") {
    matmul::testing::check_misaligned(matmul::step07_bank_conflicts, 710);
}

TEST_CASE("step 07 keeps its partial sums in registers") {
    matmul::testing::check_registers_only(matmul::step07_bank_conflicts_attributes());
}

TEST_CASE("step 07 is faster than step 06") {
    if (!course::testing::timing_is_meaningful()) return;
    // Bank conflicts cannot be counted from inside a program (Nsight Compute
    // does: see the README); what they cost shows as time. Threshold and the
    // figures it comes from: lessons/matmul/07_bank_conflicts/README.md.
    constexpr double kMinimumSpeedupOverStep06 = 1.05;
    const auto race = matmul::testing::race(
        {6, "step 06 (solution)", matmul::step06_vector_loads, matmul::step06_vector_loads_attributes},
        {7, "step 07", matmul::step07_bank_conflicts, matmul::step07_bank_conflicts_attributes}, "4096");
    matmul::testing::check_speedup(race, kMinimumSpeedupOverStep06);
}
