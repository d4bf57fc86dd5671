// Grading test of reduction step 07 (many elements per thread).
#include "reduction/helpers.h"

using namespace reduction::testing;

COURSE_SOLUTION_LAUNCHER(reduction, step07_many_per_thread)

TEST_CASE("step 07 sums exactly at every grading size") { check_grading_sizes(reduction::step07_many_per_thread); }

TEST_CASE("step 07's first pass is at most one wave of blocks, whatever n") {
    const auto& device = harness().device;
    int threads_per_sm = 0;
    CUDA_CHECK(cudaDeviceGetAttribute(&threads_per_sm, cudaDevAttrMaxThreadsPerMultiProcessor, device.ordinal));
    const auto record = launches_for(reduction::step07_many_per_thread, std::size_t{1} << 26);
    REQUIRE(!record.kernels.empty());
    const auto& first = record.kernels.front();
    const std::size_t one_wave =
        static_cast<std::size_t>(device.sm_count) * (threads_per_sm / first.threads_per_block());
    CHECK_MESSAGE(first.blocks() <= one_wave, first.blocks(), " blocks for 2^26 ints; one wave is ", one_wave);
}

TEST_CASE("step 07 runs at least 0.85x as fast as the reference solution of step 07") {
    if (!course::testing::timing_is_meaningful()) return;
    // The course's speed rule (tests/speed_rule.h); what the untouched starter
    // measures in it is in lessons/reduction/README.md's starters table.
    check_speed(7, reduction::step06_complete_unroll, reduction::solution::step07_many_per_thread,
                reduction::step07_many_per_thread, std::size_t{1} << 24,
                "one wave of blocks, each thread summing many values in a grid-stride loop before the tree; the "
                "README's Nsight Compute command shows the grid size and DRAM throughput");
}
