// What every basics grading test does: check a launcher at the grading sizes
// and race it against the reference solution of its step.
#pragma once

#include "doctest_include.h"
#include "gpu_test.h"
#include "own_kernels.h"
#include "speed_rule.h"
#include "tracks/basics/track.h"

#include <cstdint>
#include <string>
#include <vector>

namespace basics::testing {

using course::testing::harness;

// c = a + b, checked at every 1D grading size, by the launcher's own kernels
// (tests/own_kernels.h); the inputs of size n are seeded with seed + n.
inline void check_grading_sizes(basics::Launcher launch, std::uint64_t seed) {
    for (const std::size_t n : course::testing::sizes_1d()) {
        CAPTURE(n);
        basics::Problem problem(n, seed + n);
        const auto result = course::check_once(harness(), problem.run(launch));
        CHECK_MESSAGE(result.ok, result.summary());
        course::testing::check_launches_own_kernels(problem.run(launch).launch, "");
    }
}

// The speed rule (tests/speed_rule.h) at 2^26 floats: `graded` at least 0.85x
// as fast as `reference`, the reference solution of step `step`, with
// `previous` (the step before's solution; nullptr for step 01) in the table
// for comparison.
inline void check_speed(int step, basics::Launcher previous, basics::Launcher reference, basics::Launcher graded,
                        const std::string& advice) {
    const auto steps = course::testing::race_of<basics::Step>(step, previous, reference, graded);
    course::testing::check_speed_rule("basics " + course::step_label(step), basics::run_ladder, steps, "2^26", advice);
}

}  // namespace basics::testing
