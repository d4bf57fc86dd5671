// J. Seo's Fermi examples ("CUDA Performance Consideration", lecture slides),
// for any calculator: the CPU test of the reference solution
// (test_calculator_cpu.cpp) and step 02's grading test run them.
//
// The slides count as the CUDA 4.0 occupancy calculator's simplest reading
// does: registers per thread times threads, no allocation units (20 + 1
// registers: 32K / 21 = 1560 threads, more than the SM's 1536, so occupancy 1;
// 63 + 1: 32K / 64 = 512 threads, 512 / 1536 = 0.333), shared memory per
// thread times threads (32 bytes per thread: 48 KiB / 32 = 1536 threads,
// occupancy 1; 16 KiB / 32 = 512 threads, 0.333), and at most 8 blocks per
// SM (block size 32: 256 threads, 0.1666; 64: 512, 0.333; 128: 1024, 0.666;
// 192: 1536, 1; 256: 2048 of which 1536 fit, 1). A calculator reproduces them
// from Fermi's limits with allocation units of 1 and one register partition.
#pragma once

#include "doctest_include.h"
#include "tracks/occupancy/kernels.h"

#include <string>

namespace occupancy::testing {

// A Fermi SM (compute capability 2.0) as the slides count it.
inline occupancy::SmLimits fermi_as_the_slides_count(std::size_t shared_per_sm) {
    occupancy::SmLimits sm;
    sm.warp_size = 32;
    sm.max_threads_per_block = 1024;
    sm.max_warps_per_sm = 48;  // 1536 threads
    sm.max_blocks_per_sm = 8;
    sm.registers_per_sm = 32768;
    sm.registers_per_block = 32768;
    sm.max_registers_per_thread = 64;  // 63, and the implicit one the slides add
    sm.register_allocation_unit = 1;
    sm.register_partitions = 1;
    sm.shared_per_sm = shared_per_sm;  // 48 KiB or 16 KiB, as the L1/shared split is chosen
    sm.shared_per_block = shared_per_sm;
    sm.shared_per_block_optin = shared_per_sm;
    sm.reserved_shared_per_block = 0;
    sm.shared_allocation_unit = 1;
    return sm;
}

inline occupancy::BlockResources fermi_block(int threads, int registers, std::size_t shared_bytes = 0) {
    occupancy::BlockResources block;
    block.threads = threads;
    block.registers_per_thread = registers;
    block.static_shared_bytes = shared_bytes;
    block.dynamic_shared_bytes = 0;
    block.max_dynamic_shared_bytes = 0;
    return block;
}

// Every example of the slides, checked on `calculator`.
inline void check_fermi_examples(occupancy::Calculator calculator) {
    const occupancy::SmLimits fermi48 = fermi_as_the_slides_count(48 * 1024);
    const occupancy::SmLimits fermi16 = fermi_as_the_slides_count(16 * 1024);

    SUBCASE("registers, example 1: 20 + 1 registers per thread, occupancy 1") {
        // 32K / 21 = 1560 threads' worth of registers, more than the 1536
        // threads an SM holds: registers do not limit. In whole warps: 48.
        CHECK(32768 / 21 == 1560);
        for (int threads : {192, 256, 384, 512}) {
            CAPTURE(threads);
            const auto result = calculator(fermi48, fermi_block(threads, 21));
            CHECK(result.blocks_by_registers * threads >= 1536);
            CHECK(result.active_warps == 48);
            CHECK(result.occupancy == doctest::Approx(1.0));
        }
    }
    SUBCASE("registers, example 2: 63 + 1 registers per thread, 512 threads, occupancy 0.333") {
        for (int threads : {128, 256, 512}) {
            CAPTURE(threads);
            const auto result = calculator(fermi48, fermi_block(threads, 64));
            CHECK(result.active_blocks * threads == 512);
            CHECK(result.limiter == occupancy::Limiter::registers);
            CHECK(result.occupancy == doctest::Approx(1.0 / 3.0));
        }
    }
    SUBCASE("registers: more than 63 per thread does not run on Fermi") {
        CHECK(calculator(fermi48, fermi_block(256, 64)).active_blocks > 0);  // the slides' "63 + 1"
        CHECK(calculator(fermi48, fermi_block(256, 65)).active_blocks == 0);
    }
    SUBCASE("shared memory: 32 bytes per thread, occupancy 1 with 48 KiB and 0.333 with 16 KiB") {
        const auto full = calculator(fermi48, fermi_block(256, 16, 256 * 32));
        CHECK(full.active_blocks * 256 == 1536);
        CHECK(full.occupancy == doctest::Approx(1.0));
        const auto third = calculator(fermi16, fermi_block(256, 16, 256 * 32));
        CHECK(third.active_blocks * 256 == 512);
        CHECK(third.limiter == occupancy::Limiter::shared_memory);
        CHECK(third.occupancy == doctest::Approx(1.0 / 3.0));
    }
    SUBCASE("block size: at most 8 blocks per SM") {
        struct Row {
            int threads, active_threads;
            double occupancy;
        };
        // The slides' table (256: "2048 (1536)").
        for (const Row& row : {Row{32, 256, 1.0 / 6}, Row{64, 512, 1.0 / 3}, Row{128, 1024, 2.0 / 3},
                               Row{192, 1536, 1.0}, Row{256, 1536, 1.0}}) {
            CAPTURE(row.threads);
            const auto result = calculator(fermi48, fermi_block(row.threads, 16));
            CHECK(result.active_blocks * row.threads == row.active_threads);
            CHECK(result.occupancy == doctest::Approx(row.occupancy));
            if (row.threads < 192) CHECK(result.limiter == occupancy::Limiter::blocks);
        }
    }
    SUBCASE("allocation units matter: Fermi's real register unit, 64 per warp") {
        // The CUDA 4.0 occupancy calculator lists compute capability 2.0's
        // registers as allocated per warp in units of 64: 21 registers x 32
        // threads = 672 become 704 per warp, and the file holds 46 warps, not
        // 48: 7 blocks of 192 threads, occupancy 0.875, not 1.
        occupancy::SmLimits real = fermi48;
        real.register_allocation_unit = 64;
        const auto result = calculator(real, fermi_block(192, 21));
        CHECK(result.blocks_by_registers == 7);
        CHECK(result.limiter == occupancy::Limiter::registers);
        CHECK(result.occupancy == doctest::Approx(0.875));
    }
}

}  // namespace occupancy::testing
