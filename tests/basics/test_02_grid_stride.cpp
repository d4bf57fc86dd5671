// Grading test of basics step 02 (grid-stride loop, 16-byte loads). Built twice:
// against lessons/basics/02_grid_stride/kernel.cu (suite "grade") and against
// the reference solution (suite "solutions").
#include "doctest_include.h"

#include "gpu_test.h"
#include "tracks/basics.h"

using course::testing::harness;

TEST_CASE("step 02 computes c = a + b at every grading size") {
    for (const std::size_t n : course::testing::kSizes1D) {
        CAPTURE(n);
        basics::Problem problem(n, 200 + n);
        const auto result = course::check_once(harness(), problem.run(basics::step02_grid_stride));
        CHECK_MESSAGE(result.ok, result.summary());
    }
}

TEST_CASE("step 02 is right on arrays that do not start on a 16-byte boundary") {
    // a + 1, a + 2, a + 3 floats: a float4 load there would be misaligned.
    for (const std::size_t offset : {1, 2, 3}) {
        for (const std::size_t n : {std::size_t{1}, std::size_t{33}, std::size_t{4097}}) {
            CAPTURE(offset);
            CAPTURE(n);
            basics::Problem problem(n, 300 + n, offset);
            const auto result = course::check_once(harness(), problem.run(basics::step02_grid_stride));
            CHECK_MESSAGE(result.ok, result.summary());
        }
    }
}

TEST_CASE("step 02 is at least 1.10x as fast as step 01 and reaches the bandwidth ceiling") {
    if (!course::testing::timing_is_meaningful()) return;
    // Thresholds and the figures they come from are in the lesson README.
    constexpr double kMinimumFractionOfCopy = 0.90;
    constexpr double kMinimumSpeedupOverStep01 = 1.10;
    course::Options options;
    options.size = "2^26";
    const auto ladders = basics::run_ladder(
        {{1, "step 01 (solution)", basics::step01_vector_add}, {2, "step 02", basics::step02_grid_stride}},
        course::TrackRun{options, harness(), 2});
    const auto& ladder = ladders.at(0);
    const std::string table = course::format_table({harness().device, ladders});
    REQUIRE_MESSAGE(ladder.all_ok(), table);
    MESSAGE(table);
    const double fraction = course::fraction_of_library(ladder, 1).value();
    const double speedup = course::speedup_vs_previous(ladder, 1).value();
    CHECK_MESSAGE(fraction >= kMinimumFractionOfCopy, "step 02 reached ", 100 * fraction,
                  "% of the copy's bandwidth; at least ", 100 * kMinimumFractionOfCopy, "% is expected");
    CHECK_MESSAGE(speedup >= kMinimumSpeedupOverStep01, "step 02 ran at ", speedup, "x the speed of step 01");
}
