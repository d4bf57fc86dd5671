// Grading test of reduction step 05 (last warp unrolled). Run it under
// racecheck too: the unrolled warp must be race-free without relying on warp
// lockstep. `meson test -C build --setup racecheck` runs the solution's build
// of this test; add `--suite grade "reduction 05 unroll_last_warp"` for the
// student's (the racecheck setup leaves the grade suite out unless named).
#include "reduction_test.h"

using namespace reduction_test;

TEST_CASE("step 05 sums exactly at every grading size") { check_grading_sizes(reduction::step05_unroll_last_warp); }

TEST_CASE("step 05 is faster than step 04") {
    if (!course::testing::timing_is_meaningful()) return;
    constexpr double kMinimumSpeedup = 1.12;   // calibration in lessons/reduction/05_unroll_last_warp/README.md
    const auto ladder = race(reduction::step04_first_add_on_load, reduction::step05_unroll_last_warp, 5,
                             std::size_t{1} << 24);
    CHECK_MESSAGE(speedup(ladder) >= kMinimumSpeedup, "speedup over step 04: ", speedup(ladder), "x");
}
