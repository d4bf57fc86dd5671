#include "occupancy/calculator_check.h"

#include "gpu_test.h"

#include <memory>

namespace occupancy::testing {

namespace {

KernelResources resources(const Probe& probe) {
    KernelResources kernel;
    kernel.name = probe.name;
    kernel.registers_per_thread = probe.attributes.numRegs;
    kernel.static_shared_bytes = probe.attributes.sharedSizeBytes;
    kernel.max_dynamic_shared_bytes = static_cast<std::size_t>(probe.attributes.maxDynamicSharedSizeBytes);
    kernel.max_threads_per_block = probe.attributes.maxThreadsPerBlock;
    return kernel;
}

BlockResources block_of(const KernelResources& kernel, int threads, std::size_t dynamic) {
    BlockResources block;
    block.threads = threads;
    block.registers_per_thread = kernel.registers_per_thread;
    block.static_shared_bytes = kernel.static_shared_bytes;
    block.dynamic_shared_bytes = dynamic;
    block.max_dynamic_shared_bytes = kernel.max_dynamic_shared_bytes;
    return block;
}

}  // namespace

const RuntimeConfigurations& runtime_configurations() {
    static std::unique_ptr<RuntimeConfigurations> cached;
    if (cached) return *cached;
    auto all = std::make_unique<RuntimeConfigurations>();
    all->sm = limits_of(course::testing::harness().device.ordinal);
    all->probes = probes();
    std::vector<KernelResources> kernels;
    for (const Probe& probe : all->probes) kernels.push_back(resources(probe));
    const auto add = [&](std::size_t k, int threads, std::size_t dynamic, int rule) {
        RuntimeConfiguration c;
        c.probe = k;
        c.block = block_of(kernels[k], threads, dynamic);
        c.api_blocks = api_active_blocks(all->probes[k].kernel, threads, dynamic);
        c.rule = rule;
        all->configurations.push_back(c);
    };

    // A grid: round and odd block sizes, shared memory from none to the
    // opt-in limit, on every probe kernel.
    const std::vector<int> block_sizes = {1,   32,  33,  64,  96,  100, 128, 160, 192, 250,  256,
                                          288, 320, 384, 480, 512, 640, 768, 800, 896, 1000, 1024};
    const std::vector<std::size_t> dynamic_sizes = {0,     1,     1000,  3000,   8192,   12345,  20000, 30000,
                                                    40000, 49152, 65536, 100000, 150000, 200000, 232448};
    for (std::size_t k = 0; k < kernels.size(); ++k)
        for (const int threads : block_sizes)
            for (const std::size_t dynamic : dynamic_sizes)
                if (threads <= kernels[k].max_threads_per_block && dynamic <= kernels[k].max_dynamic_shared_bytes)
                    add(k, threads, dynamic, -1);
    all->from_grid = all->configurations.size();

    // For each rule, where it alone decides.
    const std::vector<std::vector<Configuration>> decisive = decisive_configurations(all->sm, kernels, kPerRule);
    const std::vector<std::vector<Configuration>> every = decisive_configurations(all->sm, kernels, SIZE_MAX);
    for (std::size_t r = 0; r < decisive.size(); ++r) {
        all->decisive_found.push_back(every[r].size());
        all->decisive_compared.push_back(decisive[r].size());
        for (const Configuration& c : decisive[r])
            add(c.kernel, c.threads, c.dynamic_shared_bytes, static_cast<int>(r));
    }
    cached = std::move(all);
    return *cached;
}

RuntimeComparison compare_with_runtime(Calculator calculator) {
    const RuntimeConfigurations& all = runtime_configurations();
    RuntimeComparison result;
    result.caught_per_rule.assign(every_rule().size(), 0);
    for (const RuntimeConfiguration& c : all.configurations) {
        const int mine = calculator(all.sm, c.block).active_blocks;
        ++result.tried;
        if (mine == c.api_blocks) continue;
        ++result.mismatches;
        if (c.rule >= 0) ++result.caught_per_rule[static_cast<std::size_t>(c.rule)];
        if (result.mismatches <= 10) {
            const Probe& probe = all.probes[c.probe];
            result.first += "\n  " + probe.name + " (" + std::to_string(probe.attributes.numRegs) + " registers, " +
                            std::to_string(probe.attributes.sharedSizeBytes) + " B static), " +
                            std::to_string(c.block.threads) + " threads, " +
                            std::to_string(c.block.dynamic_shared_bytes) + " B dynamic" +
                            (c.rule >= 0 ? std::string(" (where ") + rule_name(every_rule()[c.rule]) + " decides)"
                                         : std::string()) +
                            ": the calculator says " + std::to_string(mine) + " blocks, the CUDA runtime " +
                            std::to_string(c.api_blocks);
        }
    }
    return result;
}

std::string describe_coverage(const RuntimeConfigurations& all) {
    std::string text = std::to_string(all.configurations.size()) + " configurations: " + std::to_string(all.from_grid) +
                       " from a grid of block and shared memory sizes over " + std::to_string(all.probes.size()) +
                       " probe kernels, and for each rule some of those where it " +
                       "alone decides (leaving it out changes the answer):";
    for (std::size_t r = 0; r < every_rule().size(); ++r) {
        text += "\n  " + std::string(rule_name(every_rule()[r])) + ": ";
        text += all.decisive_found[r] == 0
                    ? std::string("decides nowhere on this GPU (its limits make another rule give the same answer)")
                    : std::to_string(all.decisive_compared[r]) + " of the " + std::to_string(all.decisive_found[r]) +
                          " where it decides";
    }
    return text;
}

}  // namespace occupancy::testing
