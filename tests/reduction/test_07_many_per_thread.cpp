// Grading test of reduction step 07 (many elements per thread).
#include "reduction_test.h"

using namespace reduction_test;

TEST_CASE("step 07 sums exactly at every grading size") { check_grading_sizes(reduction::step07_many_per_thread); }

TEST_CASE("step 07's first pass is at most one wave of blocks, whatever n") {
    const auto& device = harness().device;
    int threads_per_sm = 0;
    CUDA_CHECK(cudaDeviceGetAttribute(&threads_per_sm, cudaDevAttrMaxThreadsPerMultiProcessor, device.ordinal));
    const auto record = launches_for(reduction::step07_many_per_thread, std::size_t{1} << 26);
    REQUIRE(!record.kernels.empty());
    const auto& first = record.kernels.front();
    const std::size_t one_wave = static_cast<std::size_t>(device.sm_count) * (threads_per_sm / first.threads_per_block());
    CHECK_MESSAGE(first.blocks() <= one_wave, first.blocks(), " blocks for 2^26 ints; one wave is ", one_wave);
}

TEST_CASE("step 07 is faster than step 06") {
    if (!course::testing::timing_is_meaningful()) return;
    constexpr double kMinimumSpeedup = 1.20;   // calibration in lessons/reduction/07_many_per_thread/README.md
    const auto ladder = race(reduction::step06_complete_unroll, reduction::step07_many_per_thread, 7,
                             std::size_t{1} << 24);
    CHECK_MESSAGE(speedup(ladder) >= kMinimumSpeedup, "speedup over step 06: ", speedup(ladder), "x");
}
