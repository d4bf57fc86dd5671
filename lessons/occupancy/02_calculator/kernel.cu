// Occupancy, step 02: the occupancy calculator.
//                                                          (your starting point)
// This file is host code: the function that says how many blocks of a kernel
// an SM holds. It replaces step 01's kernels (which stay in step 01's
// solution, linked into this program); the TODO(step 02) markers are where
// you write it. README.md in this folder explains the rules. Build and run:
// meson compile -C build occupancy-02 && build/lessons/occupancy-02
#include "tracks/occupancy/kernels.h"  // TODO(step 02): done for you (no device code here)

// TODO(step 02): done for you: this step has no kernel; the helpers below
// round up to an allocation unit.
#include <algorithm>
#include <climits>

namespace {

// TODO(step 02): done for you.
[[maybe_unused]] int round_up(int value, int unit) { return (value + unit - 1) / unit * unit; }
[[maybe_unused]] std::size_t round_up(std::size_t value, std::size_t unit) { return (value + unit - 1) / unit * unit; }

}  // namespace

occupancy::Occupancy occupancy::step02_calculator(const SmLimits& sm, const BlockResources& block) {
    // TODO(step 02): compute, for a block of block.threads threads on an SM
    // with the limits `sm` (tracks/occupancy/kernels.h explains each field):
    //   1. result.blocks_by_warps: the SM's warp slots over the block's warps
    //      (a partial warp takes a whole slot);
    //   2. result.blocks_by_registers: registers per warp rounded up to
    //      sm.register_allocation_unit; each of sm.register_partitions
    //      partitions holds a whole number of warps; 0 if the block's warps,
    //      rounded up to a multiple of the partitions, need more than
    //      sm.registers_per_block, or a thread more than
    //      sm.max_registers_per_thread; INT_MAX (no limit, not a division by
    //      zero) for a block of 0 registers per thread;
    //   3. result.blocks_by_shared: static + dynamic + the reserve, rounded up
    //      to sm.shared_allocation_unit, into sm.shared_per_sm; 0 if the
    //      dynamic part exceeds block.max_dynamic_shared_bytes or the whole
    //      exceeds the per-block limit (README.md: which one) plus the reserve;
    //      INT_MAX when the whole is 0 bytes (no shared memory, no reserve:
    //      the slides' Fermi);
    //   4. result.blocks_by_block_limit: sm.max_blocks_per_sm;
    // then active_blocks (the smallest), the limiter (the first smallest, in
    // that order), active_warps and occupancy (active warps over
    // sm.max_warps_per_sm). A block of 0 threads, or more than
    // sm.max_threads_per_block, gets all zeros (and Limiter::none).
    Occupancy result;
    return result;
}
