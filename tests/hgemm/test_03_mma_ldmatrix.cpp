// Grading test of hgemm step 03 (mma.sync m16n8k16 and ldmatrix, the
// accumulators stored from registers). Built twice: against
// lessons/hgemm/03_mma_ldmatrix/kernel.cu (suite "grade") and against the
// reference solution (suite "solutions").
#include "hgemm/helpers.h"

COURSE_SOLUTION_LAUNCHER(hgemm, step03_mma_ldmatrix)
COURSE_SOLUTION_LAUNCHER(hgemm, step03_mma_ldmatrix_attributes)

TEST_CASE("step 03 computes C = A * B at every grading shape") {
    hgemm::testing::check_every_shape(hgemm::step03_mma_ldmatrix, 300);
}

TEST_CASE("step 03 is right on matrices that do not start on a 32-byte boundary") {
    hgemm::testing::check_misaligned(hgemm::step03_mma_ldmatrix, 310);
}

TEST_CASE("step 03 keeps step 02's tiles and stores C from registers, with no staging area") {
    // The step changes the instructions, not the tiling; step 02's staging
    // area for C (8 KiB per block) is gone.
    const auto check = hgemm::testing::check_no_staging(hgemm::step03_mma_ldmatrix);
    MESSAGE(check.what);
    CHECK_MESSAGE(check.ok, check.what);
}

TEST_CASE("step 03 keeps its fragments and accumulators in registers") {
    hgemm::testing::check_registers_only(hgemm::step03_mma_ldmatrix_attributes());
}

TEST_CASE("step 03 runs at least 0.85x as fast as the reference solution of step 03") {
    if (!course::testing::timing_is_meaningful()) return;
    // The course's speed rule (tests/speed_rule.h).
    hgemm::testing::check_speed(
        {{2, "", hgemm::step02_wmma_shared, hgemm::step02_wmma_shared_attributes},
         {3, "", hgemm::solution::step03_mma_ldmatrix, hgemm::solution::step03_mma_ldmatrix_attributes},
         {3, "", hgemm::step03_mma_ldmatrix, hgemm::step03_mma_ldmatrix_attributes}},
        "4096",
        "ldmatrix .x4 for A and .x4.trans for B from the padded shared tiles, 16 mma.syncs per warp and 16 terms, "
        "and the accumulators stored from registers; the README's Nsight Compute command shows the tensor pipe's use "
        "and the ldmatrix bank conflicts");
}
