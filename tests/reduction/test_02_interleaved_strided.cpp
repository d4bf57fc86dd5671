// Grading test of reduction step 02 (interleaved addressing, strided index).
#include "reduction_test.h"

using namespace reduction_test;

TEST_CASE("step 02 sums exactly at every grading size") { check_grading_sizes(reduction::step02_interleaved_strided); }

TEST_CASE("step 02 is faster than step 01: no divergent warps, no %") {
    if (!course::testing::timing_is_meaningful()) return;
    constexpr double kMinimumSpeedup = 1.30;   // calibration in lessons/reduction/02_interleaved_strided/README.md
    const auto ladder = race(reduction::step01_interleaved_divergent, reduction::step02_interleaved_strided, 2,
                             std::size_t{1} << 24);
    CHECK_MESSAGE(speedup(ladder) >= kMinimumSpeedup, "speedup over step 01: ", speedup(ladder), "x");
}
