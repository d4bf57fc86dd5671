// Grading test of basics step 01 (one element per thread). Built twice: against
// lessons/basics/01_vector_add/kernel.cu (suite "grade") and against the
// reference solution (suite "solutions").
#include "basics/helpers.h"

using namespace basics::testing;

COURSE_SOLUTION_LAUNCHER(basics, step01_vector_add)

TEST_CASE("step 01 computes c = a + b at every grading size") { check_grading_sizes(basics::step01_vector_add, 100); }

TEST_CASE("step 01 runs at least 0.85x as fast as the reference solution of step 01") {
    if (!course::testing::timing_is_meaningful()) return;
    // The course's speed rule (tests/speed_rule.h); what the untouched starter
    // measures in it is in lessons/basics/README.md's starters table.
    check_speed(1, nullptr, basics::solution::step01_vector_add, basics::step01_vector_add,
                "coalescing: thread i of the grid must read a[i] and b[i] and write c[i], so that a warp's 32 threads "
                "touch 32 consecutive floats; the README's Nsight Compute command counts the sectors per request");
}
