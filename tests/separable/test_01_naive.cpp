// Grading test of separable step 01 (naive row and column passes). Built twice: against
// lessons/separable/01_naive/kernel.cu (suite "grade") and against the
// reference solution (suite "solutions").
#include "separable/helpers.h"

using namespace separable::testing;

COURSE_SOLUTION_LAUNCHER(separable, step01_naive)

TEST_CASE("step 01 filters every grading shape with every grading filter length") {
    check_every_shape(separable::step01_naive);
}

TEST_CASE("step 01 is two kernels: the row pass, then the column pass") {
    const auto record = launches_for(separable::step01_naive, 2048, 2048, 7);
    CHECK(record.kernels.size() == 2);
}

TEST_CASE("step 01 runs at least 0.85x as fast as the reference solution of step 01") {
    if (!course::testing::timing_is_meaningful()) return;
    // The course's speed rule (tests/speed_rule.h); what the untouched starter
    // measures in it is in lessons/separable/README.md's starters table.
    check_speed(1, nullptr, separable::solution::step01_naive, separable::step01_naive,
                "coalescing: threadIdx.x must walk along a row (x), so that a warp reads and writes 32 neighbouring "
                "pixels; the README's Nsight Compute command counts the sectors per request");
}
