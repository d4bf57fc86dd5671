// The reference solution of step 02 (the occupancy calculator) on J. Seo's
// Fermi examples, without a GPU: the calculator is host code, and Fermi's
// limits are a SmLimits like any GPU's. Step 02's grading test runs the same
// examples on the student's calculator, and compares it with the CUDA
// runtime on the GPU at hand.
#include "doctest_include.h"
#include "occupancy/calculator_rules.h"
#include "occupancy/fermi.h"

#include <algorithm>
#include <vector>

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

TEST_CASE("step 02's grading finds configurations where each allocation rule alone decides, on an H100's limits") {
    // Kernels like lesson 02's probes: register counts the compiler picks
    // (multiples of 4), ones set with __maxnreg__ (37, 101, 255), static
    // shared memory, and one opted in to the largest dynamic shared memory.
    using occupancy::testing::KernelResources;
    std::vector<KernelResources> kernels;
    for (const int registers : {10, 20, 32, 40, 64, 96, 128, 168, 212, 37, 101, 255})
        kernels.push_back({"registers", registers, 0, 49152, 1024});
    kernels.push_back({"bounded", 64, 0, 49152, 256});
    kernels.push_back({"static", 20, 20000, 49152 - 20000, 1024});
    kernels.push_back({"opted in", 10, 0, 232448, 1024});
    const occupancy::SmLimits h100;
    const auto& rules = occupancy::testing::every_rule();
    const auto decisive = occupancy::testing::decisive_configurations(h100, kernels, 48);
    for (std::size_t r = 0; r < rules.size(); ++r) {
        CAPTURE(occupancy::testing::rule_name(rules[r]));
        const bool block_rule = rules[r] == occupancy::testing::Rule::block_registers ||
                                rules[r] == occupancy::testing::Rule::block_register_rounding;
        // 64K registers per block, as many as the SM has: a block that fits
        // the partitions fits that limit, so the block rules decide nowhere.
        CHECK(decisive[r].empty() == block_rule);
        CHECK(decisive[r].size() <= 48);
        for (const auto& c : decisive[r]) {
            occupancy::BlockResources block;
            block.threads = c.threads;
            block.registers_per_thread = kernels[c.kernel].registers_per_thread;
            block.static_shared_bytes = kernels[c.kernel].static_shared_bytes;
            block.dynamic_shared_bytes = c.dynamic_shared_bytes;
            block.max_dynamic_shared_bytes = kernels[c.kernel].max_dynamic_shared_bytes;
            // The model with every rule is the reference solution; without the
            // rule it differs there.
            CHECK(occupancy::testing::active_blocks_without(occupancy::testing::Rule::none, h100, block) ==
                  occupancy::step02_calculator(h100, block).active_blocks);
            CHECK(occupancy::testing::active_blocks_without(rules[r], h100, block) !=
                  occupancy::step02_calculator(h100, block).active_blocks);
        }
    }
    // With half the registers per block (32K, as some GPUs have), the block
    // rules decide too.
    occupancy::SmLimits half = h100;
    half.registers_per_block = 32768;
    const auto with_block_limit = occupancy::testing::decisive_configurations(half, kernels, 48);
    for (std::size_t r = 0; r < rules.size(); ++r) {
        CAPTURE(occupancy::testing::rule_name(rules[r]));
        CHECK(!with_block_limit[r].empty());
    }
}

TEST_CASE("step 02's grading tries block sizes that are not whole warps and shared memory at every unit boundary") {
    const occupancy::SmLimits h100;
    const occupancy::testing::KernelResources kernel{"static", 20, 2000, 49152 - 2000, 1000};
    const std::vector<int> sizes = occupancy::testing::candidate_block_sizes(h100, kernel);
    CHECK(sizes.front() == 1);
    CHECK(sizes.back() == 1000);  // the kernel's own limit
    CHECK(std::find(sizes.begin(), sizes.end(), 33) != sizes.end());
    CHECK(std::find(sizes.begin(), sizes.end(), 63) != sizes.end());
    CHECK(std::find(sizes.begin(), sizes.end(), 64) != sizes.end());
    const std::vector<std::size_t> dynamic = occupancy::testing::candidate_dynamic_sizes(h100, kernel);
    // 5 blocks: 233472 / 5 rounded down to the 128-byte unit, 46592 bytes
    // each, less the static 2000 and the 1024 reserved; and one byte more.
    // Nothing past the kernel's own limit, 47152.
    CHECK(std::find(dynamic.begin(), dynamic.end(), 233472 / 5 / 128 * 128 - 3024) != dynamic.end());
    CHECK(std::find(dynamic.begin(), dynamic.end(), 233472 / 5 / 128 * 128 - 3024 + 1) != dynamic.end());
    CHECK(std::find(dynamic.begin(), dynamic.end(), 47152) != dynamic.end());
    for (const std::size_t size : dynamic) CHECK(size <= 47152);
}
