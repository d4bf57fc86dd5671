// Grading test of reduction step 03 (sequential addressing).
#include "reduction/helpers.h"

using namespace reduction::testing;

COURSE_SOLUTION_LAUNCHER(reduction, step03_sequential)

TEST_CASE("step 03 sums exactly at every grading size") { check_grading_sizes(reduction::step03_sequential); }

TEST_CASE("step 03 runs at least 0.85x as fast as the reference solution of step 03") {
    if (!course::testing::timing_is_meaningful()) return;
    // The course's speed rule (tests/speed_rule.h); what the untouched starter
    // measures in it is in lessons/reduction/README.md's starters table.
    check_speed(3, reduction::step02_interleaved_strided, reduction::solution::step03_sequential,
                reduction::step03_sequential, std::size_t{1} << 24,
                "shared-memory bank conflicts: with sequential addressing a warp's 32 threads read 32 consecutive "
                "elements (the README's Nsight Compute command counts the conflicts)");
}
