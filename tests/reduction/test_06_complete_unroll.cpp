// Grading test of reduction step 06 (complete unroll, template block size).
#include "reduction_test.h"

using namespace reduction_test;

TEST_CASE("step 06 sums exactly at every grading size") { check_grading_sizes(reduction::step06_complete_unroll); }

TEST_CASE("step 06 is not slower than step 05") {
    if (!course::testing::timing_is_meaningful()) return;
    constexpr double kMinimumSpeedup = 0.95;   // calibration in lessons/reduction/06_complete_unroll/README.md
    const auto ladder = race(reduction::step05_unroll_last_warp, reduction::step06_complete_unroll, 6,
                             std::size_t{1} << 24);
    CHECK_MESSAGE(speedup(ladder) >= kMinimumSpeedup, "speedup over step 05: ", speedup(ladder), "x");
}
