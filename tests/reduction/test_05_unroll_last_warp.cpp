// Grading test of reduction step 05 (last warp unrolled). The grade setup
// runs it under racecheck too ("reduction 05 unroll_last_warp racecheck"):
// the unrolled warp must be race-free without relying on warp lockstep
// (tests/reduction/plant_warp_synchronous.cu is the form that is not).
#include "reduction/helpers.h"

using namespace reduction::testing;

COURSE_SOLUTION_LAUNCHER(reduction, step05_unroll_last_warp)

TEST_CASE("step 05 sums exactly at every grading size") { check_grading_sizes(reduction::step05_unroll_last_warp); }

TEST_CASE("step 05 runs at least 0.85x as fast as the reference solution of step 05") {
    if (!course::testing::timing_is_meaningful()) return;
    // The course's speed rule (tests/speed_rule.h); what the untouched starter
    // measures in it is in lessons/reduction/README.md's starters table.
    check_speed(5, reduction::step04_first_add_on_load, reduction::solution::step05_unroll_last_warp,
                reduction::step05_unroll_last_warp, std::size_t{1} << 24,
                "the last six rounds, done by warp 0 alone with __syncwarp() between them instead of "
                "__syncthreads(); the README's Nsight Compute command counts the instructions");
}
