// Grading test of matmul step 07 (no shared-memory bank conflicts). Built
// twice: against lessons/matmul/07_bank_conflicts/kernel.cu (suite "grade")
// and against the reference solution (suite "solutions").
#include "matmul/helpers.h"
#include "matmul/structure.h"

COURSE_SOLUTION_LAUNCHER(matmul, step07_bank_conflicts)
COURSE_SOLUTION_LAUNCHER(matmul, step07_bank_conflicts_attributes)

TEST_CASE("step 07 computes C = A * B at every grading shape") {
    matmul::testing::check_every_shape(matmul::step07_bank_conflicts, 700);
}

TEST_CASE("step 07 is right on matrices that do not start on a 16-byte boundary") {
    matmul::testing::check_misaligned(matmul::step07_bank_conflicts, 710);
}

TEST_CASE("step 07 keeps its partial sums in registers") {
    matmul::testing::check_registers_only(matmul::step07_bank_conflicts_attributes());
}

TEST_CASE("step 07 pads A's tile rows: at least the shared memory of the reference solution") {
    // The padding (kPad floats after each row of As) is what moves the two
    // stores of a row into different banks; without it the tiles take
    // exactly two unpadded 8 x 128 tiles.
    // Static and dynamic shared memory, read from the launch.
    MESSAGE(matmul::testing::describe(matmul::step07_bank_conflicts_attributes()));
    const auto check = matmul::testing::check_shared_at_least(
        matmul::step07_bank_conflicts, matmul::testing::shared_bytes_launched(matmul::solution::step07_bank_conflicts),
        "the reference solution's padded tiles");
    CHECK_MESSAGE(check.ok, check.what);
}

TEST_CASE("step 07 runs at least 0.85x as fast as the reference solution of step 07") {
    if (!course::testing::timing_is_meaningful()) return;
    // The course's speed rule (tests/speed_rule.h); what the untouched starter
    // measures in it is in lessons/matmul/README.md's starters table.
    matmul::testing::check_speed(
        {{6, "", matmul::step06_vector_loads, matmul::step06_vector_loads_attributes},
         {7, "", matmul::solution::step07_bank_conflicts, matmul::solution::step07_bank_conflicts_attributes},
         {7, "", matmul::step07_bank_conflicts, matmul::step07_bank_conflicts_attributes}},
        "4096",
        "the padding of the transposed A tile (and the layout of B's) so that a warp's shared-memory stores and "
        "reads fall in different banks; the README's Nsight Compute command counts the bank conflicts");
}
