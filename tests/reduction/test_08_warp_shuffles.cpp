// Grading test of reduction step 08 (warp shuffles).
#include "reduction_test.h"

using namespace reduction_test;

TEST_CASE("step 08 sums exactly at every grading size") { check_grading_sizes(reduction::step08_warp_shuffles); }

TEST_CASE("step 08 keeps one value per warp in shared memory, not one per thread") {
    const auto record = launches_for(reduction::step08_warp_shuffles, std::size_t{1} << 22);
    REQUIRE(!record.kernels.empty());
    const auto& first = record.kernels.front();
    const std::size_t warps = first.threads_per_block() / 32;
    CHECK_MESSAGE(first.shared_bytes() <= warps * sizeof(long long), first.shared_bytes(),
                  " bytes of shared memory per block; the warps' totals need ", warps * sizeof(long long));
}

TEST_CASE("step 08 is not slower than step 07") {
    if (!course::testing::timing_is_meaningful()) return;
    constexpr double kMinimumSpeedup = 0.95;   // calibration in lessons/reduction/08_warp_shuffles/README.md
    const auto ladder = race(reduction::step07_many_per_thread, reduction::step08_warp_shuffles, 8, std::size_t{1} << 24);
    CHECK_MESSAGE(speedup(ladder) >= kMinimumSpeedup, "speedup over step 07: ", speedup(ladder), "x");
}
