// Grading test of occupancy step 02 (the occupancy calculator). Built twice:
// against lessons/occupancy/02_calculator/kernel.cu (suite "grade") and
// against the reference solution (suite "solutions").
#include "occupancy/fermi.h"
#include "occupancy/helpers.h"

#include <cstdio>

using namespace occupancy::testing;

TEST_CASE("step 02 reproduces the slides' Fermi examples from Fermi's limits") {
    check_fermi_examples(occupancy::step02_calculator);
}

TEST_CASE("step 02 agrees with cudaOccupancyMaxActiveBlocksPerMultiprocessor on every configuration tried") {
    // Probe kernels with many register counts (values held in registers,
    // register caps from __launch_bounds__) and static shared memory, each
    // launched in thought with many block sizes (multiples of a warp and
    // not) and dynamic shared memory sizes; the kernel's own registers and
    // shared memory come from cudaFuncGetAttributes.
    const occupancy::SmLimits sm = occupancy::limits_of(harness().device.ordinal);
    MESSAGE(occupancy::describe(sm));
    const std::vector<int> block_sizes = {1,   32,  33,  64,  96,  100, 128, 160, 192, 250,  256,
                                          288, 320, 384, 480, 512, 640, 768, 800, 896, 1000, 1024};
    const std::vector<std::size_t> dynamic_sizes = {0,     1,     1000,  3000,   8192,   12345,  20000, 30000,
                                                    40000, 49152, 65536, 100000, 150000, 200000, 232448};
    std::size_t tried = 0, mismatches = 0;
    std::string first;
    for (const occupancy::Probe& probe : occupancy::probes()) {
        for (const int threads : block_sizes) {
            if (threads > probe.attributes.maxThreadsPerBlock) continue;
            for (const std::size_t dynamic : dynamic_sizes) {
                if (dynamic > static_cast<std::size_t>(probe.attributes.maxDynamicSharedSizeBytes)) continue;
                occupancy::BlockResources block;
                block.threads = threads;
                block.registers_per_thread = probe.attributes.numRegs;
                block.static_shared_bytes = probe.attributes.sharedSizeBytes;
                block.dynamic_shared_bytes = dynamic;
                block.max_dynamic_shared_bytes = static_cast<std::size_t>(probe.attributes.maxDynamicSharedSizeBytes);
                const int mine = occupancy::step02_calculator(sm, block).active_blocks;
                const int api = occupancy::api_active_blocks(probe.kernel, threads, dynamic);
                ++tried;
                if (mine != api) {
                    if (++mismatches <= 10) {
                        const std::string line = probe.name + " (" + std::to_string(probe.attributes.numRegs) +
                                                 " registers, " + std::to_string(probe.attributes.sharedSizeBytes) +
                                                 " B static), " + std::to_string(threads) + " threads, " +
                                                 std::to_string(dynamic) + " B dynamic: the calculator says " +
                                                 std::to_string(mine) + " blocks, the CUDA runtime " +
                                                 std::to_string(api);
                        first += "\n  " + line;
                    }
                }
            }
        }
    }
    std::printf("configurations tried: %zu, mismatches: %zu\n", tried, mismatches);
    MESSAGE("configurations tried: ", tried, ", mismatches: ", mismatches);
    CHECK(tried >= 500);
    CHECK_MESSAGE(mismatches == 0, "the calculator differs from the CUDA runtime in ", mismatches, " of ", tried,
                  " configurations; the first:", first);
}

TEST_CASE("step 02 sees each limiter bind on this GPU") {
    // One configuration per limiter, from the GPU's own limits.
    const occupancy::SmLimits sm = occupancy::limits_of(harness().device.ordinal);
    occupancy::BlockResources block;
    block.threads = sm.warp_size;  // tiny blocks: the block slots run out first
    block.registers_per_thread = 16;
    block.max_dynamic_shared_bytes = sm.shared_per_block;
    CHECK(occupancy::step02_calculator(sm, block).limiter == occupancy::Limiter::blocks);
    block.threads = 1024;  // big blocks of few registers: warp slots
    CHECK(occupancy::step02_calculator(sm, block).limiter == occupancy::Limiter::warps);
    block.threads = 256;
    block.registers_per_thread = 128;
    CHECK(occupancy::step02_calculator(sm, block).limiter == occupancy::Limiter::registers);
    block.registers_per_thread = 16;
    block.dynamic_shared_bytes = sm.shared_per_block;
    CHECK(occupancy::step02_calculator(sm, block).limiter == occupancy::Limiter::shared_memory);
}
