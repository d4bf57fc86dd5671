// The course's speed rule, shared by every grading test.
//
// A lesson's speed requirement never depends on the GPU it runs on: the
// kernel being graded races the reference solution of the same step, in one
// ladder, in the same program, on the same GPU and data, and must be at least
// kMinimumFractionOfReference (85%) as fast. A race that misses is run again,
// up to kSpeedAttempts ladders in all, before the test fails: one slow ladder
// (another process on the GPU, a clock change) fails nobody. A ladder in
// which the reference's own times spread more than kMaxReferenceSpread
// decides nothing either way and is run again too (tests/speed_verdict.h).
// The failure message prints every ladder and what to look at.
//
// The rule measures speed only; what the step is about (its launch shape,
// shared memory, registers, number of kernels...) is checked by the lesson's
// other test cases, which need no timing and hold on any GPU.
//
// The reference solution of step N is built a second time for the grading
// tests, as `<track>::solution::stepNN_...` (course/kernel_copy.h); a test
// declares the launchers it races with COURSE_SOLUTION_LAUNCHER.
#pragma once

#include "doctest_include.h"
#include "gpu_test.h"
#include "speed_verdict.h"

#include "course/ladder.h"
#include "course/track.h"

#include <cstddef>
#include <functional>
#include <map>
#include <string>
#include <vector>

// Declares `track::solution::name`, the reference solution's copy of the
// launcher `track::name` (same type).
#define COURSE_SOLUTION_LAUNCHER(track, name) \
    namespace track::solution {               \
    decltype(::track::name) name;             \
    }

namespace course::testing {

// Runs `race` until one attempt passes (verdict_of: every measure reaches
// `minimum`, against references that ran steadily), at most kSpeedAttempts
// times. Passes quietly apart from the ladder and a summary line; fails with
// every ladder it ran, what each said, and `advice` (what to look at).
// `lesson` names the step ("reduction 03"); with $COURSE_GRADING_LOG set,
// every attempt is appended to that file as a JSON line (tests/check-grading
// reads them).
void check_speed_rule(const std::string& lesson, const std::function<SpeedAttempt()>& race, const std::string& advice,
                      double minimum = kMinimumFractionOfReference);

// The titles of a race's rows: "step 03, reference solution" (the previous
// step's and this step's) and "step 03, the kernel graded" (last).
std::string solution_title(int step);
std::string graded_title(int step);

// Marks the race's last step row (`graded_row`) as the student's and no other:
// the reference solution of the same step has the same step number, which the
// ladder would mark too. Returns the table as printed.
std::string mark_and_format(Ladder& ladder, std::size_t graded_row);

// The graded row's time as a fraction of the row before it (the reference
// solution's), with the spread of the reference's times in this ladder
// (reference_spread in tests/speed_verdict.h). The
// ladder must have passed its checks.
SpeedMeasure time_against_reference(const Ladder& ladder, std::size_t graded_row);

// The race of the tracks whose ladders take a list of steps and return
// ladders (basics, reduction, matmul): runs `steps` (the previous solution if
// any, the reference, the graded kernel) at `size` (as for --size), requires
// every check to pass, and measures the graded kernel's time. `extra` holds
// the track's own options (--taps ...), as the command line would.
template <typename Step, typename RunLadder>
SpeedAttempt race_steps(RunLadder run_ladder, const std::vector<Step>& steps, const std::string& size,
                        const std::map<std::string, std::string>& extra = {}) {
    Options options;
    options.size = size;
    options.extra = extra;
    auto ladders = run_ladder(steps, TrackRun{options, harness(), steps.back().number});
    Ladder& ladder = ladders.at(0);
    const std::size_t graded = steps.size() - 1;
    SpeedAttempt attempt;
    attempt.table = mark_and_format(ladder, graded);
    REQUIRE_MESSAGE(ladder.all_ok(), attempt.table);
    attempt.measures.push_back(time_against_reference(ladder, graded));
    return attempt;
}

// The race's steps for the tracks whose Step begins {number, title, launch}
// (basics, reduction, separable): the solution of the step before (left out
// when `previous` is null, for step 01), the reference solution of `step`, and
// the kernel graded, last.
template <typename Step, typename Launcher>
std::vector<Step> race_of(int step, Launcher previous, Launcher reference, Launcher graded) {
    std::vector<Step> steps;
    if (previous != nullptr) steps.push_back({step - 1, "", previous});
    steps.push_back({step, "", reference});
    steps.push_back({step, "", graded});
    return steps;
}

// The whole rule for those tracks: races `graded` against `reference` (the
// reference solution of the same step), after `previous` (the solution of the
// step before, shown for comparison; leave it out for step 01). The steps'
// titles are replaced by the race's.
template <typename Step, typename RunLadder>
void check_speed_rule(const std::string& lesson, RunLadder run_ladder, std::vector<Step> steps, const std::string& size,
                      const std::string& advice, const std::map<std::string, std::string>& extra = {}) {
    REQUIRE_MESSAGE((steps.size() == 2 || steps.size() == 3), "a race is [previous,] reference, graded");
    std::vector<std::string> titles;
    for (std::size_t i = 0; i < steps.size(); ++i)
        titles.push_back(i + 1 == steps.size() ? graded_title(steps[i].number) : solution_title(steps[i].number));
    for (std::size_t i = 0; i < steps.size(); ++i) steps[i].title = titles[i].c_str();
    check_speed_rule(
        lesson, [&] { return race_steps(run_ladder, steps, size, extra); }, advice);
}

}  // namespace course::testing
