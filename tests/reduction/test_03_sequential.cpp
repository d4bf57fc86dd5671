// Grading test of reduction step 03 (sequential addressing).
#include "reduction_test.h"

using namespace reduction_test;

TEST_CASE("step 03 sums exactly at every grading size") { check_grading_sizes(reduction::step03_sequential); }

TEST_CASE("step 03 is faster than step 02: no bank conflicts") {
    if (!course::testing::timing_is_meaningful()) return;
    constexpr double kMinimumSpeedup = 1.25;   // calibration in lessons/reduction/03_sequential/README.md
    const auto ladder = race(reduction::step02_interleaved_strided, reduction::step03_sequential, 3,
                             std::size_t{1} << 24);
    CHECK_MESSAGE(speedup(ladder) >= kMinimumSpeedup, "speedup over step 02: ", speedup(ladder), "x");
}
