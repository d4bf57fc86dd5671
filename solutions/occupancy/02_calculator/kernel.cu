// Occupancy, step 02: the occupancy calculator.
//
// Occupancy is the SM's active warps over the most it can hold (J. Seo, "CUDA
// Performance Consideration"). A block is placed on an SM whole, with all its
// resources, so the SM holds as many blocks as its scarcest resource allows:
// warp slots, registers, shared memory, or the count of block slots. This
// step computes that number the way the hardware allocates, as NVIDIA's
// occupancy calculator did and as cudaOccupancyMaxActiveBlocksPerMultiprocessor
// does, for any SM described by a SmLimits: the GPU at hand, or the slides'
// Fermi. No kernel here: the calculator is host code, and steps 03 to 06
// predict their occupancy with it.
#include "tracks/occupancy/kernels.h"

#include <algorithm>
#include <climits>

namespace {

int round_up(int value, int unit) { return (value + unit - 1) / unit * unit; }
std::size_t round_up(std::size_t value, std::size_t unit) { return (value + unit - 1) / unit * unit; }

}  // namespace

occupancy::Occupancy occupancy::step02_calculator(const SmLimits& sm, const BlockResources& block) {
    Occupancy result;
    // A block the SM cannot run at all holds no warps anywhere.
    if (block.threads < 1 || block.threads > sm.max_threads_per_block) return result;
    const int warps = (block.threads + sm.warp_size - 1) / sm.warp_size;  // a partial warp takes a whole slot

    // Warp slots.
    result.blocks_by_warps = sm.max_warps_per_sm / warps;

    // Registers: allocated per warp, rounded up to the allocation unit, each
    // warp inside one partition of the register file. A block whose warps,
    // rounded up to a multiple of the partitions, would need more than a
    // block may have does not fit at all, nor does a thread over the limit.
    const int per_warp = round_up(block.registers_per_thread * sm.warp_size, sm.register_allocation_unit);
    if (block.registers_per_thread > sm.max_registers_per_thread ||
        per_warp * round_up(warps, sm.register_partitions) > sm.registers_per_block) {
        result.blocks_by_registers = 0;
    } else if (per_warp == 0) {
        result.blocks_by_registers = INT_MAX;
    } else {
        const int warps_per_partition = sm.registers_per_sm / sm.register_partitions / per_warp;
        result.blocks_by_registers = warps_per_partition * sm.register_partitions / warps;
    }

    // Shared memory: static + dynamic + the system's reserve, rounded up to
    // the allocation unit. A block may use the default limit, or the opt-in
    // limit when the kernel could ask for more than the default (its largest
    // dynamic size says so), plus the reserve either way; and never more
    // dynamic shared memory than the kernel allows.
    const std::size_t fixed = block.static_shared_bytes + sm.reserved_shared_per_block;
    const std::size_t allocated = round_up(fixed + block.dynamic_shared_bytes, sm.shared_allocation_unit);
    const std::size_t limit = (fixed + block.max_dynamic_shared_bytes > sm.shared_per_block ? sm.shared_per_block_optin
                                                                                            : sm.shared_per_block) +
                              sm.reserved_shared_per_block;
    if (block.dynamic_shared_bytes > block.max_dynamic_shared_bytes || allocated > limit)
        result.blocks_by_shared = 0;
    else
        result.blocks_by_shared = allocated == 0 ? INT_MAX : static_cast<int>(sm.shared_per_sm / allocated);

    // Block slots.
    result.blocks_by_block_limit = sm.max_blocks_per_sm;

    // The scarcest resource decides; on a tie, the first in this order.
    const std::pair<int, Limiter> limits[] = {{result.blocks_by_warps, Limiter::warps},
                                              {result.blocks_by_registers, Limiter::registers},
                                              {result.blocks_by_shared, Limiter::shared_memory},
                                              {result.blocks_by_block_limit, Limiter::blocks}};
    result.active_blocks = INT_MAX;
    for (const auto& [blocks, limiter] : limits) {
        if (blocks < result.active_blocks) {
            result.active_blocks = blocks;
            result.limiter = limiter;
        }
    }
    result.active_warps = result.active_blocks * warps;
    result.occupancy = static_cast<double>(result.active_warps) / sm.max_warps_per_sm;
    return result;
}
