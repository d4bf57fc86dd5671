// Step 09's idea seen without a clock, for its grading test and for the
// grading's self-test (tests/matmul/test_stages_plants.cpp), which shows the
// check failing the untouched starter (step 08's solution). A race in a
// pipeline of copies need not show in the results, and the speed rule alone
// would grade the stages by a clock, so the stages are checked by the shared
// memory they take.
#pragma once

#include "course/launches.h"
#include "tracks/matmul/track.h"

#include <string>
#include <vector>

namespace matmul::testing {

struct StagesCheck {
    bool ok = false;
    std::string what;  // what was seen, and what was expected
};

// The shapes at which step 09's three kernels run: whole tiles (the fast
// path), N a multiple of 4 (16-byte copies of B, checked) and a ragged shape
// (4-byte copies of B).
inline const std::vector<Shape> kStageShapes = {{512, 256, 384}, {200, 100, 60}, {127, 65, 129}};

// Three stages of tiles: at every shape of kStageShapes the kernel's shared
// memory per block (static and dynamic, read from the launch captured without
// running it) is at least 1.5 times that of `two_stages`, step 08's reference
// solution, whose two stages of 16 x (128 + 4) and 16 x 128 floats take 33,280
// bytes: three such stages take 49,920. Measured against step 08 rather than
// against step 09's own solution, so that the check asks the same of a
// student whichever tiles that solution's constants (MATMUL09_...) choose.
inline StagesCheck check_three_stages(Launcher graded, Launcher two_stages) {
    StagesCheck check{true, ""};
    for (const Shape& shape : kStageShapes) {
        Problem problem(shape, 920);
        const course::LaunchRecord mine = course::record_launches(problem.run(graded).launch);
        const course::LaunchRecord theirs = course::record_launches(problem.run(two_stages).launch);
        if (mine.kernels.size() != 1 || theirs.kernels.size() != 1)
            return {false, "at " + shape.describe() + " the launcher launched " + std::to_string(mine.kernels.size()) +
                               " kernels, not one"};
        const std::size_t bytes = mine.kernels.front().shared_bytes();
        const std::size_t needed = theirs.kernels.front().shared_bytes() * 3 / 2;
        if (!check.what.empty()) check.what += "; ";
        check.what += "at " + shape.describe() + " the kernel has " + std::to_string(bytes) +
                      " bytes of shared memory per block (static and dynamic)";
        if (bytes < needed) {
            check.ok = false;
            check.what += ", where three stages of step 08's tiles take " + std::to_string(needed);
        }
    }
    return check;
}

}  // namespace matmul::testing
