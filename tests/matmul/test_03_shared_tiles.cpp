// Grading test of matmul step 03 (shared-memory tiles, 16 x 16). Built twice:
// against lessons/matmul/03_shared_tiles/kernel.cu (suite "grade") and
// against the reference solution (suite "solutions").
#include "grading.h"

TEST_CASE("step 03 computes C = A * B at every grading shape") {
    matmul::testing::check_every_shape(matmul::step03_shared_tiles, 300);
}

TEST_CASE("step 03 stages its tiles in shared memory") {
    // Two 16 x 16 tiles of floats: 2 KiB per block.
    constexpr std::size_t kMinimumSharedBytes = 2 * 16 * 16 * sizeof(float);
    const cudaFuncAttributes attributes = matmul::step03_shared_tiles_attributes();
    MESSAGE(matmul::testing::describe(attributes));
    CHECK_MESSAGE(attributes.sharedSizeBytes >= kMinimumSharedBytes, "the kernel declares ",
                  attributes.sharedSizeBytes, " bytes of shared memory; two 16 x 16 float tiles need ",
                  kMinimumSharedBytes);
}

TEST_CASE("step 03 is faster than step 02") {
    if (!course::testing::timing_is_meaningful()) return;
    // 16 times fewer global loads; L1 and L2 had been absorbing many of step
    // 02's, so the gain is smaller than 16x. Threshold and the figures it
    // comes from: lessons/matmul/03_shared_tiles/README.md.
    constexpr double kMinimumSpeedupOverStep02 = 1.10;
    const auto race = matmul::testing::race(
        {2, "step 02 (solution)", matmul::step02_coalesced, matmul::step02_coalesced_attributes},
        {3, "step 03", matmul::step03_shared_tiles, matmul::step03_shared_tiles_attributes}, "2048");
    matmul::testing::check_speedup(race, kMinimumSpeedupOverStep02);
}
