// Grading test of basics step 01 (one element per thread). Built twice: against
// lessons/basics/01_vector_add/kernel.cu (suite "grade") and against the
// reference solution (suite "solutions").
#include "doctest_include.h"

#include "speed_rule.h"
#include "gpu_test.h"
#include "tracks/basics/track.h"

using course::testing::harness;

COURSE_SOLUTION_LAUNCHER(basics, step01_vector_add)

TEST_CASE("step 01 computes c = a + b at every grading size") {
    for (const std::size_t n : course::testing::kSizes1D) {
        CAPTURE(n);
        basics::Problem problem(n, 100 + n);
        const auto result = course::check_once(harness(), problem.run(basics::step01_vector_add));
        CHECK_MESSAGE(result.ok, result.summary());
    }
}

TEST_CASE("step 01 runs at least 0.85x as fast as the reference solution of step 01") {
    if (!course::testing::timing_is_meaningful()) return;
    // The course's speed rule (tests/speed_rule.h); the figures measured with it
    // are in lessons/basics/01_vector_add/README.md.
    course::testing::check_speed_rule(
        "basics 01", basics::run_ladder,
        std::vector<basics::Step>{{1, "", basics::solution::step01_vector_add}, {1, "", basics::step01_vector_add}},
        "2^26",
        "coalescing: thread i of the grid must read a[i] and b[i] and write c[i], so that a warp's 32 threads "
        "touch 32 consecutive floats; the README's Nsight Compute command counts the sectors per request");
}
