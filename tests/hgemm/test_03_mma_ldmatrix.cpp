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
    // The step changes the instructions, not the tiling: blocks of 8 warps
    // over 128 x 128 tiles of C, and shared memory for the padded 128 x 32
    // tile of A and 32 x 128 tile of B alone (step 02's staging area for C,
    // 8 KiB more, is gone).
    const hgemm::Shape shape{1024, 1024, 256};
    const course::LaunchRecord record = hgemm::testing::launches_at(hgemm::step03_mma_ldmatrix, shape);
    REQUIRE_MESSAGE(record.kernels.size() == 1, "the launcher enqueues ", record.kernels.size(),
                    " kernels; step 03 is one kernel");
    const course::KernelLaunch& kernel = record.kernels[0];
    constexpr std::size_t kTileBytes = (128 * (32 + 8) + 32 * (128 + 8)) * sizeof(__half);
    MESSAGE(kernel.blocks(), " blocks of ", kernel.threads_per_block(), " threads; ",
            hgemm::testing::describe(kernel.attributes));
    CHECK_MESSAGE(kernel.blocks() == (1024 / 128) * (1024 / 128), kernel.blocks(),
                  " blocks at 1024 x 1024: step 03 keeps step 02's 128 x 128 block tiles");
    CHECK_MESSAGE(kernel.threads_per_block() == 256, "blocks of ", kernel.threads_per_block(),
                  " threads: step 03 keeps step 02's 8 warps");
    CHECK_MESSAGE(kernel.shared_bytes() <= kTileBytes, "the kernel has ", kernel.shared_bytes(),
                  " bytes of shared memory per block; the tiles of A and B take ", kTileBytes,
                  ": the accumulators go to C from registers, with no staging area");
}

TEST_CASE("step 03 keeps its fragments and accumulators in registers") {
    hgemm::testing::check_registers_only(hgemm::step03_mma_ldmatrix_attributes());
}

TEST_CASE("step 03 runs at least 0.85x as fast as the reference solution of step 03") {
    if (!course::testing::timing_is_meaningful()) return;
    // The course's speed rule (tests/speed_rule.h); the figures measured with it
    // will be in lessons/hgemm/03_mma_ldmatrix/README.md.
    hgemm::testing::check_speed(
        {{2, "", hgemm::step02_wmma_shared, hgemm::step02_wmma_shared_attributes},
         {3, "", hgemm::solution::step03_mma_ldmatrix, hgemm::solution::step03_mma_ldmatrix_attributes},
         {3, "", hgemm::step03_mma_ldmatrix, hgemm::step03_mma_ldmatrix_attributes}},
        "4096",
        "ldmatrix .x4 for A and .x4.trans for B from the padded shared tiles, 16 mma.syncs per warp and 16 terms, "
        "and the accumulators stored from registers; the README's Nsight Compute command shows the tensor pipe's use "
        "and the ldmatrix bank conflicts");
}
