// Grading test of reduction step 04 (first add during the global load).
#include "reduction/helpers.h"

using namespace reduction::testing;

COURSE_SOLUTION_LAUNCHER(reduction, step04_first_add_on_load)

TEST_CASE("step 04 sums exactly at every grading size") { check_grading_sizes(reduction::step04_first_add_on_load); }

TEST_CASE("step 04 launches half the blocks: two values per thread") {
    const std::size_t n = std::size_t{1} << 22;
    const auto record = launches_for(reduction::step04_first_add_on_load, n);
    REQUIRE(!record.kernels.empty());
    const auto& first = record.kernels.front();
    CHECK(first.blocks() == (n + 2 * first.threads_per_block() - 1) / (2 * first.threads_per_block()));
}

TEST_CASE("step 04 runs at least 0.85x as fast as the reference solution of step 04") {
    if (!course::testing::timing_is_meaningful()) return;
    // The course's speed rule (tests/speed_rule.h); what the untouched starter
    // measures in it is in lessons/reduction/README.md's starters table.
    check_speed(4, reduction::step03_sequential, reduction::solution::step04_first_add_on_load,
                reduction::step04_first_add_on_load, std::size_t{1} << 24,
                "half as many blocks, each thread adding two values as it loads them; the README's Nsight Compute "
                "command shows the grid size");
}
