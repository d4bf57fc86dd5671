// Step 02's comparison with the CUDA runtime, shared by its grading test and
// the grading's self-test (tests/occupancy/test_calculator_plants.cpp): the
// configurations (tests/occupancy/calculator_rules.h says how they are
// chosen), the runtime's answer for each, and a calculator's disagreements.
#pragma once

#include "occupancy/calculator_rules.h"
#include "tracks/occupancy/track.h"

#include <cstddef>
#include <string>
#include <vector>

namespace occupancy::testing {

struct RuntimeConfiguration {
    std::size_t probe = 0;  // index into probes
    BlockResources block;
    int api_blocks = 0;  // cudaOccupancyMaxActiveBlocksPerMultiprocessor
    int rule = -1;       // the rule (index into every_rule()) it was chosen for; -1: from the grid
};

struct RuntimeConfigurations {
    SmLimits sm;
    std::vector<Probe> probes;
    std::vector<RuntimeConfiguration> configurations;
    std::size_t from_grid = 0;
    // Per rule (every_rule()'s order): the candidate configurations where it
    // alone decides, and how many of them are compared.
    std::vector<std::size_t> decisive_found, decisive_compared;
};

// How many configurations per rule are compared at most (spread over all
// those where the rule decides).
inline constexpr std::size_t kPerRule = 48;

// The configurations for this GPU, with the runtime's answers (computed once).
const RuntimeConfigurations& runtime_configurations();

struct RuntimeComparison {
    std::size_t tried = 0, mismatches = 0;
    std::vector<std::size_t> caught_per_rule;  // mismatches among each rule's configurations
    std::string first;                         // the first 10 mismatches, a line each
};

RuntimeComparison compare_with_runtime(Calculator calculator);

// What was compared, a line per rule, for the test's log.
std::string describe_coverage(const RuntimeConfigurations& configurations);

}  // namespace occupancy::testing
