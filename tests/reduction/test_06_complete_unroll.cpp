// Grading test of reduction step 06 (complete unroll, template block size).
#include "reduction/helpers.h"

using namespace reduction::testing;

COURSE_SOLUTION_LAUNCHER(reduction, step06_complete_unroll)

TEST_CASE("step 06 sums exactly at every grading size") { check_grading_sizes(reduction::step06_complete_unroll); }

TEST_CASE("step 06 runs at least 0.85x as fast as the reference solution of step 06") {
    if (!course::testing::timing_is_meaningful()) return;
    // The course's speed rule (tests/speed_rule.h); what the untouched starter
    // measures in it is in lessons/reduction/README.md's starters table.
    check_speed(6, reduction::step05_unroll_last_warp, reduction::solution::step06_complete_unroll,
                reduction::step06_complete_unroll, std::size_t{1} << 24,
                "every round written out under `if constexpr (kBlockSize >= ...)`, no loop left; the README's "
                "Nsight Compute command counts the instructions");
}
