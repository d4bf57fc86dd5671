// What the occupancy grading tests share: exactness at the grading sizes,
// the launch a step enqueues, and the speed rule's race for a sweep point
// (tests/speed_rule.h: the kernel graded against the reference solution of
// its step, same shape, same data, same run).
#pragma once

#include "course/launches.h"
#include "doctest_include.h"
#include "gpu_test.h"
#include "own_kernels.h"
#include "speed_rule.h"
#include "tracks/occupancy/track.h"

#include <string>
#include <vector>

namespace occupancy::testing {

using course::testing::harness;

// out[i] = f(in[i]) exact at 1, 31, 33, 1023, 4097 and 2^22 + 3 elements, at
// each of `shapes`, by the launcher's own kernels (tests/own_kernels.h).
inline void check_grading_sizes(occupancy::StreamLauncher launch, const std::vector<occupancy::StreamShape>& shapes) {
    for (const std::size_t n : course::testing::sizes_1d()) {
        occupancy::StreamProblem problem(n, 9100 + n);
        for (const auto& shape : shapes) {
            CAPTURE(n);
            CAPTURE(shape.threads);
            CAPTURE(shape.shared_bytes);
            CAPTURE(shape.variant);
            const auto result = course::check_once(harness(), problem.run(launch, shape));
            CHECK_MESSAGE(result.ok, result.summary());
            course::testing::check_launches_own_kernels(problem.run(launch, shape).launch, "");
        }
    }
}

// The one kernel launch `launch` enqueues at `shape` for n elements.
inline course::KernelLaunch launch_of(occupancy::StreamLauncher launch, const occupancy::StreamShape& shape,
                                      std::size_t n = std::size_t{1} << 24) {
    occupancy::StreamProblem problem(n, 1);
    const course::LaunchRecord record = course::record_launches(problem.run(launch, shape).launch);
    REQUIRE_MESSAGE(record.kernels.size() == 1, "a stream step launches one kernel, this one ", record.kernels.size());
    return record.kernels.front();
}

// The speed rule at one sweep point: `graded` at least 0.85x as fast as
// `reference` (the reference solution of step `step`) at `shape`, on 2^26
// elements, both in one table.
inline void check_speed(int step, occupancy::StreamLauncher reference, occupancy::StreamLauncher graded,
                        const occupancy::StreamShape& shape, const std::string& advice) {
    occupancy::StreamProblem problem(std::size_t{1} << 26, 77);
    course::testing::check_speed_rule(
        "occupancy " + course::step_label(step),
        [&] {
            course::Ladder ladder;
            ladder.track = "occupancy";
            ladder.problem = "out[i] = f(in[i]), n = 2^26 unsigned ints, threads " + std::to_string(shape.threads) +
                             ", shared " + std::to_string(shape.shared_bytes) + " B, variant " +
                             std::to_string(shape.variant);
            ladder.unit = course::Unit::bandwidth;
            ladder.peak = harness().device.peak_dram_gbps;
            ladder.rungs.push_back(course::measure(
                harness(), course::step_rung(step, course::testing::solution_title(step), 0, problem.bytes_moved()),
                problem.run(reference, shape)));
            ladder.rungs.push_back(course::measure(
                harness(), course::step_rung(step, course::testing::graded_title(step), 0, problem.bytes_moved()),
                problem.run(graded, shape)));
            course::testing::SpeedAttempt attempt;
            attempt.table = course::testing::mark_and_format(ladder, 1);
            REQUIRE_MESSAGE(ladder.all_ok(), attempt.table);
            attempt.measures.push_back(course::testing::time_against_reference(ladder, 1));
            return attempt;
        },
        advice);
}

}  // namespace occupancy::testing
