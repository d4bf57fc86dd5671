// Grading test of reduction step 04 (first add during the global load).
#include "reduction_test.h"

using namespace reduction_test;

TEST_CASE("step 04 sums exactly at every grading size") { check_grading_sizes(reduction::step04_first_add_on_load); }

TEST_CASE("step 04 launches half the blocks: two values per thread") {
    const std::size_t n = std::size_t{1} << 22;
    const auto record = launches_for(reduction::step04_first_add_on_load, n);
    REQUIRE(!record.kernels.empty());
    const auto& first = record.kernels.front();
    CHECK(first.blocks() == (n + 2 * first.threads_per_block() - 1) / (2 * first.threads_per_block()));
}

TEST_CASE("step 04 is faster than step 03") {
    if (!course::testing::timing_is_meaningful()) return;
    constexpr double kMinimumSpeedup = 1.40;   // calibration in lessons/reduction/04_first_add_on_load/README.md
    const auto ladder = race(reduction::step03_sequential, reduction::step04_first_add_on_load, 4, std::size_t{1} << 24);
    CHECK_MESSAGE(speedup(ladder) >= kMinimumSpeedup, "speedup over step 03: ", speedup(ladder), "x");
}
