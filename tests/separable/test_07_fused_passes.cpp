// Grading test of separable step 07 (both passes in one kernel). Built twice: against
// lessons/separable/07_fused_passes/kernel.cu (suite "grade") and against the
// reference solution (suite "solutions").
#include "separable/helpers.h"

using namespace separable::testing;

COURSE_SOLUTION_LAUNCHER(separable, step07_fused_passes)

TEST_CASE("step 07 filters every grading shape with every grading filter length") {
    check_every_shape(separable::step07_fused_passes);
}

TEST_CASE("step 07 is one kernel: both passes, the intermediate rows on chip") {
    for (const int taps : {7, 63}) {
        CAPTURE(taps);
        const auto record = launches_for(separable::step07_fused_passes, 2048, 2048, taps);
        CHECK(record.kernels.size() == 1);
    }
}

TEST_CASE("step 07 runs at least 0.85x as fast as the reference solution of step 07") {
    if (!course::testing::timing_is_meaningful()) return;
    // The course's speed rule (tests/speed_rule.h); what the untouched starter
    // measures in it is in lessons/separable/README.md's starters table.
    check_speed(7, separable::step06_register_window, separable::solution::step07_fused_passes,
                separable::step07_fused_passes,
                "the two phases of one block: the row pass for the tile and its apron rows into shared memory, "
                "__syncthreads(), then the column pass from shared memory; the README's Nsight Compute command shows "
                "the DRAM bytes per pixel");
}
