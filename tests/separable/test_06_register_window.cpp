// Grading test of separable step 06 (4 outputs per thread, window in registers, float4). Built twice: against
// lessons/separable/06_register_window/kernel.cu (suite "grade") and against the
// reference solution (suite "solutions").
#include "separable/helpers.h"

using namespace separable::testing;

COURSE_SOLUTION_LAUNCHER(separable, step06_register_window)

TEST_CASE("step 06 filters every grading shape with every grading filter length") {
    check_every_shape(separable::step06_register_window);
}

TEST_CASE("step 06 computes several outputs per thread in both passes") {
    const auto record = launches_for(separable::step06_register_window, 2048, 2048, 7);
    REQUIRE(record.kernels.size() == 2);
    for (const auto& kernel : record.kernels) {
        const std::size_t threads = kernel.blocks() * kernel.threads_per_block();
        CHECK_MESSAGE(threads <= std::size_t{2048} * 2048 / 4, threads,
                      " threads for 2048x2048 pixels: each thread "
                      "must compute at least 4 outputs");
    }
}

TEST_CASE("step 06 runs at least 0.85x as fast as the reference solution of step 06") {
    if (!course::testing::timing_is_meaningful()) return;
    // The course's speed rule (tests/speed_rule.h); what the untouched starter
    // measures in it is in lessons/separable/README.md's starters table.
    check_speed(6, separable::step05_read_only_loads, separable::solution::step06_register_window,
                separable::step06_register_window,
                "the float4 window: four outputs per thread, each input loaded once per thread (row_filter4), and in "
                "the column pass a thread walking down kRows outputs; the README's Nsight Compute command counts the "
                "load instructions");
}
