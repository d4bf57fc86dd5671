// Grading test of basics step 01 (one element per thread). Built twice: against
// lessons/basics/01_vector_add/kernel.cu (suite "grade") and against the
// reference solution (suite "solutions").
#include "doctest_include.h"

#include "gpu_test.h"
#include "tracks/basics.h"

using course::testing::harness;

TEST_CASE("step 01 computes c = a + b at every grading size") {
    for (const std::size_t n : course::testing::kSizes1D) {
        CAPTURE(n);
        basics::Problem problem(n, 100 + n);
        const auto result = course::check_once(harness(), problem.run(basics::step01_vector_add));
        CHECK_MESSAGE(result.ok, result.summary());
    }
}

TEST_CASE("step 01 is coalesced: it runs near the bandwidth of a copy") {
    if (!course::testing::timing_is_meaningful()) return;
    // A kernel whose warps read consecutive floats moves memory almost as fast as
    // cudaMemcpy; one that scatters a warp's reads does not come close. The
    // threshold, with the figures measured on an H200, is in the lesson README.
    constexpr double kMinimumFractionOfCopy = 0.60;
    course::Options options;
    options.size = "2^26";
    const auto ladders = basics::run_ladder({{1, "step 01", basics::step01_vector_add}},
                                            course::TrackRun{options, harness(), 1});
    const auto& ladder = ladders.at(0);
    REQUIRE_MESSAGE(ladder.all_ok(), course::format_table({harness().device, ladders}));
    const double fraction = course::fraction_of_library(ladder, 0).value();
    MESSAGE(course::format_table({harness().device, ladders}));
    CHECK_MESSAGE(fraction >= kMinimumFractionOfCopy, "step 01 reached ", 100 * fraction,
                  "% of the copy's bandwidth; at least ", 100 * kMinimumFractionOfCopy, "% is expected");
}
