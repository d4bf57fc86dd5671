// What every reduction grading test does: check a launcher at the grading
// sizes, time it against the previous step's solution, and look at what it
// launches.
#pragma once

#include "course/launches.h"
#include "doctest_include.h"
#include "gpu_test.h"
#include "tracks/reduction.h"

#include <string>
#include <vector>

namespace reduction_test {

using course::testing::harness;

// The exact sum at 1, 31, 33, 1023, 4097 and 2^22 + 3 random ints, negative
// ones included.
inline void check_grading_sizes(reduction::Launcher launch) {
    for (const std::size_t n : course::testing::kSizes1D) {
        CAPTURE(n);
        reduction::Problem problem(n, 7000 + n);
        const auto result = course::check_once(harness(), problem.run(launch));
        CHECK_MESSAGE(result.ok, result.summary());
    }
}

// The ladder of `previous` then `current` at n ints, in one run. Fails the
// test (REQUIRE) if either result is wrong; prints the table.
inline course::Ladder race(reduction::Launcher previous, reduction::Launcher current, int current_step, std::size_t n) {
    course::Options options;
    options.size = std::to_string(n);
    const auto ladders = reduction::run_ladder(
        {{current_step - 1, "previous step (solution)", previous}, {current_step, "this step", current}},
        course::TrackRun{options, harness(), current_step});
    const std::string table = course::format_table({harness().device, ladders});
    REQUIRE_MESSAGE(ladders.at(0).all_ok(), table);
    MESSAGE(table);
    return ladders.at(0);
}

// This step's speedup over the previous one (row 1 against row 0).
inline double speedup(const course::Ladder& ladder) { return course::speedup_vs_previous(ladder, 1).value(); }

// The kernels `launch` enqueues for n ints.
inline course::LaunchRecord launches_for(reduction::Launcher launch, std::size_t n) {
    reduction::Problem problem(n, 1);
    return course::record_launches(problem.run(launch).launch);
}

}  // namespace reduction_test
