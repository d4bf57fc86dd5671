// The allocation rules step 02 teaches, one by one, for its grading test:
// which configurations the calculator is compared with the CUDA runtime on,
// and calculators that each leave one rule out (the test's own plants: the
// comparison must catch every one of them).
//
// Why configurations derived from the rules: a calculator that leaves a rule
// out, or gets it wrong, gives the runtime's answer wherever that rule does
// not decide. A grid of round block sizes and shared-memory sizes rarely
// lands where one rule alone decides (a register count just past an
// allocation unit, shared memory one byte past a unit boundary), so a wrong
// rule can pass it. Here, for every rule, the configurations where leaving
// that rule out changes the answer are found by evaluating every candidate
// configuration with and without the rule, and some of them, on both sides of
// each boundary, are added to the comparison.
#pragma once

#include "tracks/occupancy/kernels.h"

#include <cstddef>
#include <string>
#include <vector>

namespace occupancy::testing {

// One allocation rule of the calculator (tracks/occupancy/kernels.h, SmLimits).
enum class Rule {
    none,                     // every rule kept: the model the others are compared with
    partial_warps,            // a partial warp takes a whole warp slot and a warp's registers
    warp_slots,               // at most max_warps_per_sm resident warps
    register_unit,            // a warp's registers rounded up to register_allocation_unit
    register_partitions,      // each partition of the register file holds a whole number of warps
    block_registers,          // a block's registers at most registers_per_block
    block_register_rounding,  // ... counted with its warps rounded up to a multiple of the partitions
    shared_reserve,           // reserved_shared_per_block added to every block
    shared_unit,              // a block's shared memory rounded up to shared_allocation_unit
    optin_limit,              // a kernel that opted in may use shared_per_block_optin, not 48 KiB
    block_slots,              // at most max_blocks_per_sm resident blocks
};

// Every rule but none, in the order above.
const std::vector<Rule>& every_rule();
std::string rule_name(Rule rule);

// The active blocks per SM with every rule but `left_out`.
int active_blocks_without(Rule left_out, const SmLimits& sm, const BlockResources& block);

// A calculator with every rule but `left_out` (a plant: a calculator that
// forgot one rule).
Calculator calculator_without(Rule left_out);

// A kernel as the comparison sees it: its registers and shared memory.
struct KernelResources {
    std::string name;
    int registers_per_thread = 0;
    std::size_t static_shared_bytes = 0;
    std::size_t max_dynamic_shared_bytes = 0;
    int max_threads_per_block = 1024;
};

struct Configuration {
    std::size_t kernel = 0;  // index into the kernels
    int threads = 0;
    std::size_t dynamic_shared_bytes = 0;
};

// The block sizes tried for every kernel: for each warp count w up to the
// kernel's limit, 32w (whole warps), 32w - 31 (one thread in the last warp)
// and 32w - 1, and the kernel's own limit.
std::vector<int> candidate_block_sizes(const SmLimits& sm, const KernelResources& kernel);

// The dynamic shared memory sizes tried for a kernel: for every number of
// blocks b the SM's shared memory could hold, the largest size whose
// allocation still fits b blocks and one byte more (the next allocation
// unit); the default per-block limit and one byte past it; the kernel's
// largest (the opt-in limit for a kernel that opted in); 0 and 1.
std::vector<std::size_t> candidate_dynamic_sizes(const SmLimits& sm, const KernelResources& kernel);

// For each rule (every_rule()'s order), the candidate configurations where
// leaving it out changes the active blocks: up to `per_rule` of them, spread
// over all such configurations in order, and always the first and the last.
std::vector<std::vector<Configuration>> decisive_configurations(const SmLimits& sm,
                                                                const std::vector<KernelResources>& kernels,
                                                                std::size_t per_rule);

}  // namespace occupancy::testing
