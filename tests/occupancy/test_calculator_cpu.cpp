// The reference solution of step 02 (the occupancy calculator) on J. Seo's
// Fermi examples, without a GPU: the calculator is host code, and Fermi's
// limits are a SmLimits like any GPU's. Step 02's grading test runs the same
// examples on the student's calculator, and compares it with the CUDA
// runtime on the GPU at hand.
#include "doctest_include.h"
#include "occupancy/fermi.h"

TEST_CASE("the step 02 solution reproduces the slides' Fermi examples") {
    occupancy::testing::check_fermi_examples(occupancy::step02_calculator);
}

TEST_CASE("the step 02 solution on an H100's limits, by hand") {
    // The defaults of SmLimits are an H100's (sm_90): 64 warps, 32 blocks,
    // 64K registers in 4 partitions, 228 KiB of shared memory, 1 KiB reserved
    // per block.
    const occupancy::SmLimits h100;
    occupancy::BlockResources block;
    block.threads = 256;
    block.registers_per_thread = 32;  // 1024 per warp: 16 warps per partition, 8 blocks
    auto result = occupancy::step02_calculator(h100, block);
    CHECK(result.blocks_by_warps == 8);
    CHECK(result.blocks_by_registers == 8);
    CHECK(result.blocks_by_shared == 233472 / 1024);  // the reserve alone
    CHECK(result.active_warps == 64);
    CHECK(result.occupancy == doctest::Approx(1.0));
    CHECK(result.limiter == occupancy::Limiter::warps);

    block.registers_per_thread = 40;  // 1280 per warp: 12 warps per partition (not 12.8), 48 per SM
    result = occupancy::step02_calculator(h100, block);
    CHECK(result.blocks_by_registers == 6);
    CHECK(result.occupancy == doctest::Approx(0.75));
    CHECK(result.limiter == occupancy::Limiter::registers);

    block.registers_per_thread = 32;
    block.dynamic_shared_bytes = 48 * 1024;  // 49 KiB with the reserve: 4 blocks in 228 KiB
    result = occupancy::step02_calculator(h100, block);
    CHECK(result.blocks_by_shared == 4);
    CHECK(result.limiter == occupancy::Limiter::shared_memory);
    block.dynamic_shared_bytes = 48 * 1024 + 1;  // over the default limit of a kernel that did not opt in
    CHECK(occupancy::step02_calculator(h100, block).active_blocks == 0);

    block.dynamic_shared_bytes = 0;
    block.threads = 32;  // 32 blocks of one warp: half the warp slots
    result = occupancy::step02_calculator(h100, block);
    CHECK(result.active_blocks == 32);
    CHECK(result.occupancy == doctest::Approx(0.5));
    CHECK(result.limiter == occupancy::Limiter::blocks);

    block.threads = 1024;
    block.registers_per_thread = 72;  // 2304 per warp x 32 warps > 64K registers per block
    CHECK(occupancy::step02_calculator(h100, block).active_blocks == 0);
}
