#include "occupancy/calculator_rules.h"

#include <algorithm>
#include <climits>

namespace occupancy::testing {

namespace {

int round_up(int value, int unit) { return (value + unit - 1) / unit * unit; }
std::size_t round_up(std::size_t value, std::size_t unit) { return (value + unit - 1) / unit * unit; }

template <Rule kLeftOut>
Occupancy without(const SmLimits& sm, const BlockResources& block) {
    Occupancy result;
    result.active_blocks = active_blocks_without(kLeftOut, sm, block);
    const int warps = block.threads > 0 ? (block.threads + sm.warp_size - 1) / sm.warp_size : 0;
    result.active_warps = result.active_blocks * warps;
    result.occupancy = static_cast<double>(result.active_warps) / sm.max_warps_per_sm;
    return result;
}

}  // namespace

const std::vector<Rule>& every_rule() {
    static const std::vector<Rule> rules = {Rule::partial_warps,   Rule::warp_slots,
                                            Rule::register_unit,   Rule::register_partitions,
                                            Rule::block_registers, Rule::block_register_rounding,
                                            Rule::shared_reserve,  Rule::shared_unit,
                                            Rule::optin_limit,     Rule::block_slots};
    return rules;
}

std::string rule_name(Rule rule) {
    switch (rule) {
    case Rule::none: return "every rule";
    case Rule::partial_warps: return "a partial warp takes a whole warp";
    case Rule::warp_slots: return "the SM's warp slots";
    case Rule::register_unit: return "registers allocated in units per warp";
    case Rule::register_partitions: return "a whole number of warps per register partition";
    case Rule::block_registers: return "the registers a block may have";
    case Rule::block_register_rounding: return "a block's warps rounded up to the partitions for its register limit";
    case Rule::shared_reserve: return "the shared memory reserved per block";
    case Rule::shared_unit: return "shared memory allocated in units";
    case Rule::optin_limit: return "the opt-in shared memory limit";
    case Rule::block_slots: return "the SM's block slots";
    }
    return "?";
}

int active_blocks_without(Rule left_out, const SmLimits& sm, const BlockResources& block) {
    if (block.threads < 1 || block.threads > sm.max_threads_per_block) return 0;
    const int warps = left_out == Rule::partial_warps ? std::max(1, block.threads / sm.warp_size)
                                                      : (block.threads + sm.warp_size - 1) / sm.warp_size;
    const int by_warps = left_out == Rule::warp_slots ? INT_MAX : sm.max_warps_per_sm / warps;

    const int raw_per_warp = block.registers_per_thread * sm.warp_size;
    const int per_warp =
        left_out == Rule::register_unit ? raw_per_warp : round_up(raw_per_warp, sm.register_allocation_unit);
    const int block_warps = left_out == Rule::block_register_rounding ? warps : round_up(warps, sm.register_partitions);
    int by_registers = 0;
    if (block.registers_per_thread > sm.max_registers_per_thread ||
        (left_out != Rule::block_registers && per_warp * block_warps > sm.registers_per_block))
        by_registers = 0;
    else if (per_warp == 0)
        by_registers = INT_MAX;
    else if (left_out == Rule::register_partitions)
        by_registers = sm.registers_per_sm / (per_warp * warps);
    else
        by_registers = sm.registers_per_sm / sm.register_partitions / per_warp * sm.register_partitions / warps;

    const std::size_t reserve = left_out == Rule::shared_reserve ? 0 : sm.reserved_shared_per_block;
    const std::size_t fixed = block.static_shared_bytes + reserve;
    const std::size_t asked = fixed + block.dynamic_shared_bytes;
    const std::size_t allocated = left_out == Rule::shared_unit ? asked : round_up(asked, sm.shared_allocation_unit);
    const bool opted_in = left_out != Rule::optin_limit && fixed + block.max_dynamic_shared_bytes > sm.shared_per_block;
    const std::size_t limit = (opted_in ? sm.shared_per_block_optin : sm.shared_per_block) + reserve;
    int by_shared = 0;
    if (block.dynamic_shared_bytes > block.max_dynamic_shared_bytes || allocated > limit)
        by_shared = 0;
    else
        by_shared = allocated == 0 ? INT_MAX : static_cast<int>(sm.shared_per_sm / allocated);

    const int by_blocks = left_out == Rule::block_slots ? INT_MAX : sm.max_blocks_per_sm;
    return std::min({by_warps, by_registers, by_shared, by_blocks});
}

Calculator calculator_without(Rule left_out) {
    switch (left_out) {
    case Rule::none: return without<Rule::none>;
    case Rule::partial_warps: return without<Rule::partial_warps>;
    case Rule::warp_slots: return without<Rule::warp_slots>;
    case Rule::register_unit: return without<Rule::register_unit>;
    case Rule::register_partitions: return without<Rule::register_partitions>;
    case Rule::block_registers: return without<Rule::block_registers>;
    case Rule::block_register_rounding: return without<Rule::block_register_rounding>;
    case Rule::shared_reserve: return without<Rule::shared_reserve>;
    case Rule::shared_unit: return without<Rule::shared_unit>;
    case Rule::optin_limit: return without<Rule::optin_limit>;
    case Rule::block_slots: return without<Rule::block_slots>;
    }
    return nullptr;
}

std::vector<int> candidate_block_sizes(const SmLimits& sm, const KernelResources& kernel) {
    const int most = std::min(sm.max_threads_per_block, kernel.max_threads_per_block);
    std::vector<int> sizes;
    for (int w = 1; w * sm.warp_size - (sm.warp_size - 1) <= most; ++w)
        for (const int threads : {w * sm.warp_size - (sm.warp_size - 1), w * sm.warp_size - 1, w * sm.warp_size})
            if (threads >= 1 && threads <= most) sizes.push_back(threads);
    sizes.push_back(most);  // the kernel's own limit (__launch_bounds__), whatever it is
    std::sort(sizes.begin(), sizes.end());
    sizes.erase(std::unique(sizes.begin(), sizes.end()), sizes.end());
    return sizes;
}

std::vector<std::size_t> candidate_dynamic_sizes(const SmLimits& sm, const KernelResources& kernel) {
    std::vector<std::size_t> sizes = {0, 1};
    const std::size_t unit = sm.shared_allocation_unit;
    // The boundaries with and without the reserve, so that a calculator that
    // forgets it lands on the wrong side of one.
    for (const std::size_t fixed :
         {kernel.static_shared_bytes + sm.reserved_shared_per_block, kernel.static_shared_bytes}) {
        for (int blocks = 1; blocks <= sm.max_blocks_per_sm; ++blocks) {
            const std::size_t allocation = sm.shared_per_sm / static_cast<std::size_t>(blocks) / unit * unit;
            if (allocation < fixed) continue;
            sizes.push_back(allocation - fixed);
            sizes.push_back(allocation - fixed + 1);
        }
    }
    if (sm.shared_per_block >= kernel.static_shared_bytes) {
        sizes.push_back(sm.shared_per_block - kernel.static_shared_bytes);
        sizes.push_back(sm.shared_per_block - kernel.static_shared_bytes + 1);
    }
    sizes.push_back(kernel.max_dynamic_shared_bytes);
    std::vector<std::size_t> allowed;
    for (const std::size_t size : sizes)
        if (size <= kernel.max_dynamic_shared_bytes) allowed.push_back(size);
    std::sort(allowed.begin(), allowed.end());
    allowed.erase(std::unique(allowed.begin(), allowed.end()), allowed.end());
    return allowed;
}

std::vector<std::vector<Configuration>> decisive_configurations(const SmLimits& sm,
                                                                const std::vector<KernelResources>& kernels,
                                                                std::size_t per_rule) {
    const std::vector<Rule>& rules = every_rule();
    std::vector<std::vector<Configuration>> all(rules.size());
    for (std::size_t k = 0; k < kernels.size(); ++k) {
        const KernelResources& kernel = kernels[k];
        const std::vector<std::size_t> dynamic_sizes = candidate_dynamic_sizes(sm, kernel);
        for (const int threads : candidate_block_sizes(sm, kernel)) {
            for (const std::size_t dynamic : dynamic_sizes) {
                BlockResources block;
                block.threads = threads;
                block.registers_per_thread = kernel.registers_per_thread;
                block.static_shared_bytes = kernel.static_shared_bytes;
                block.dynamic_shared_bytes = dynamic;
                block.max_dynamic_shared_bytes = kernel.max_dynamic_shared_bytes;
                const int full = active_blocks_without(Rule::none, sm, block);
                for (std::size_t r = 0; r < rules.size(); ++r)
                    if (active_blocks_without(rules[r], sm, block) != full) all[r].push_back({k, threads, dynamic});
            }
        }
    }
    std::vector<std::vector<Configuration>> chosen(rules.size());
    for (std::size_t r = 0; r < rules.size(); ++r) {
        const std::vector<Configuration>& found = all[r];
        if (found.size() <= per_rule || per_rule < 2) {
            chosen[r] = per_rule < 2 && !found.empty() ? std::vector<Configuration>{found.front()} : found;
            continue;
        }
        for (std::size_t i = 0; i < per_rule; ++i) chosen[r].push_back(found[i * (found.size() - 1) / (per_rule - 1)]);
    }
    return chosen;
}

}  // namespace occupancy::testing
