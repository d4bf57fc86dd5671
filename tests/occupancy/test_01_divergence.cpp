// Grading test of occupancy step 01 (divergence, switch (threadIdx.x % N)).
// Built twice: against lessons/occupancy/01_divergence/kernel.cu (suite
// "grade") and against the reference solution (suite "solutions").
#include "occupancy/helpers.h"

using namespace occupancy::testing;

COURSE_SOLUTION_LAUNCHER(occupancy, step01_divergence)

namespace {

// Each element's case at every grading size and case count, by the
// launcher's own kernels (tests/own_kernels.h); a few rounds suffice for
// correctness (the CPU reference is the slow part).
void check_exact(occupancy::DivergenceLauncher launch, bool short_cases) {
    for (const std::size_t n : course::testing::sizes_1d()) {
        occupancy::DivergenceProblem problem(n, 4100 + n);
        for (const int cases : occupancy::divergence_cases()) {
            CAPTURE(n);
            CAPTURE(cases);
            const auto result = course::check_once(harness(), problem.run(launch, cases, 3, short_cases));
            CHECK_MESSAGE(result.ok, result.summary());
            course::testing::check_launches_own_kernels(problem.run(launch, cases, 3, short_cases).launch, "");
        }
    }
}

}  // namespace

TEST_CASE("step 01: every case computes its own mix, at every grading size and N") {
    check_exact(occupancy::step01_divergence, false);
}

TEST_CASE("step 01: the short cases are right too") { check_exact(occupancy::step01_divergence_short, true); }

TEST_CASE("step 01: a bad case count fails loudly") {
    occupancy::DivergenceProblem problem(64, 1);
    CHECK_THROWS_AS(problem.run(occupancy::step01_divergence, 3, 1, false), course::Error);
    CHECK_THROWS_AS(problem.run(occupancy::step01_divergence, 64, 1, false), course::Error);
}

TEST_CASE("step 01: divergence costs: time at N = 32 over time at N = 1, at least half the reference's") {
    if (!course::testing::timing_is_meaningful()) return;
    // The lesson's kernel must really diverge: with 64 rounds of work per
    // case, a warp that runs 32 paths takes many times longer than one that
    // runs one. A kernel that the compiler flattened (or that computes the
    // case without a switch) stays flat and fails here. Measured against the
    // reference solution in the same run, so no threshold depends on the GPU.
    occupancy::DivergenceProblem problem(occupancy::kDefaultDivergenceSize, 4242);
    auto ratio = [&](occupancy::DivergenceLauncher launch) {
        const auto one = course::measure(harness(), course::step_rung(1, "N = 1", 0, problem.bytes_moved()),
                                         problem.run(launch, 1, occupancy::kDivergenceRounds, false));
        const auto all = course::measure(harness(), course::step_rung(1, "N = 32", 0, problem.bytes_moved()),
                                         problem.run(launch, 32, occupancy::kDivergenceRounds, false));
        REQUIRE_MESSAGE(one.check.ok, one.check.summary());
        REQUIRE_MESSAGE(all.check.ok, all.check.summary());
        return all.time.median_ms / one.time.median_ms;
    };
    double reference = 0, graded = 0;
    for (int attempt = 1; attempt <= course::testing::kSpeedAttempts; ++attempt) {
        reference = ratio(occupancy::solution::step01_divergence);
        graded = ratio(occupancy::step01_divergence);
        MESSAGE("time at N = 32 over time at N = 1: reference solution ", reference, "x, the kernel graded ", graded,
                "x (attempt ", attempt, ")");
        if (graded >= 0.5 * reference) break;
    }
    CHECK_MESSAGE(graded >= 0.5 * reference, "the kernel graded slows down ", graded,
                  "x from N = 1 to N = 32, the reference solution ", reference,
                  "x: write the switch on threadIdx.x % cases with one case per value, each calling its own "
                  "mix_case<c> (README.md)");
}

TEST_CASE("step 01 runs at least 0.85x as fast as the reference solution of step 01 at N = 1") {
    if (!course::testing::timing_is_meaningful()) return;
    occupancy::DivergenceProblem problem(occupancy::kDefaultDivergenceSize, 4343);
    course::testing::check_speed_rule(
        "occupancy 01",
        [&] {
            course::Ladder ladder;
            ladder.track = "occupancy";
            ladder.problem = "divergence at N = 1, 2^22 unsigned ints";
            ladder.unit = course::Unit::bandwidth;
            ladder.rungs.push_back(course::measure(
                harness(), course::step_rung(1, course::testing::solution_title(1), 0, 0),
                problem.run(occupancy::solution::step01_divergence, 1, occupancy::kDivergenceRounds, false)));
            ladder.rungs.push_back(
                course::measure(harness(), course::step_rung(1, course::testing::graded_title(1), 0, 0),
                                problem.run(occupancy::step01_divergence, 1, occupancy::kDivergenceRounds, false)));
            course::testing::SpeedAttempt attempt;
            attempt.table = course::testing::mark_and_format(ladder, 1);
            REQUIRE_MESSAGE(ladder.all_ok(), attempt.table);
            attempt.measures.push_back(course::testing::time_against_reference(ladder, 1));
            return attempt;
        },
        "each case should call its own mix_case<c> once per element, nothing more");
}
