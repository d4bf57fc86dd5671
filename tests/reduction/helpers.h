// What every reduction grading test does: check a launcher at the grading
// sizes, race it against the reference solution of its step, and look at
// what it launches.
#pragma once

#include "course/launches.h"
#include "doctest_include.h"
#include "gpu_test.h"
#include "own_kernels.h"
#include "speed_rule.h"
#include "tracks/reduction/track.h"

#include <string>
#include <vector>

namespace reduction::testing {

using course::testing::harness;

// The exact sum at 1, 31, 33, 1023, 4097 and 2^22 + 3 random ints, negative
// ones included, by the launcher's own kernels (tests/own_kernels.h).
inline void check_grading_sizes(reduction::Launcher launch) {
    for (const std::size_t n : course::testing::sizes_1d()) {
        CAPTURE(n);
        reduction::Problem problem(n, 7000 + n);
        const auto result = course::check_once(harness(), problem.run(launch));
        CHECK_MESSAGE(result.ok, result.summary());
        course::testing::check_launches_own_kernels(problem.run(launch).launch, "");
    }
}

// The speed rule (tests/speed_rule.h) at n ints: `graded` at least 0.85x as fast
// as `reference`, the reference solution of step `step`, with `previous` (the
// step before's solution; nullptr for step 01) in the table for comparison.
inline void check_speed(int step, reduction::Launcher previous, reduction::Launcher reference,
                        reduction::Launcher graded, std::size_t n, const std::string& advice) {
    const auto steps = course::testing::race_of<reduction::Step>(step, previous, reference, graded);
    course::testing::check_speed_rule("reduction " + course::step_label(step), reduction::run_ladder, steps,
                                      std::to_string(n), advice);
}

// The kernels `launch` enqueues for n ints.
inline course::LaunchRecord launches_for(reduction::Launcher launch, std::size_t n) {
    reduction::Problem problem(n, 1);
    return course::record_launches(problem.run(launch).launch);
}

}  // namespace reduction::testing
