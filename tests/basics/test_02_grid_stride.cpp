// Grading test of basics step 02 (grid-stride loop, 16-byte loads). Built twice:
// against lessons/basics/02_grid_stride/kernel.cu (suite "grade") and against
// the reference solution (suite "solutions").
#include "basics/helpers.h"
#include "course/launches.h"
#include "shifted_arrays.h"

using namespace basics::testing;

COURSE_SOLUTION_LAUNCHER(basics, step02_grid_stride)

TEST_CASE("step 02 computes c = a + b at every grading size") { check_grading_sizes(basics::step02_grid_stride, 200); }

TEST_CASE("step 02 is right on arrays that do not start on a 16-byte boundary") {
    // a + 1, a + 2, a + 3 floats: a float4 load there would be misaligned.
    // One array at a time, then all three: a kernel that checks only a's
    // alignment would pass with all three shifted.
    for (const std::size_t offset : {1, 2, 3}) {
        for (const std::size_t n : {std::size_t{1}, std::size_t{33}, std::size_t{4097}}) {
            CAPTURE(n);
            course::testing::check_each_shift(
                course::offsets_one_at_a_time(offset), {"a", "b", "c"}, "float",
                [n](const course::Offsets& offsets) { return basics::Problem(n, 300 + n, offsets); },
                basics::step02_grid_stride);
        }
    }
}

TEST_CASE("step 02 launches at most one wave of blocks, whatever n") {
    // The grid-stride loop is the step's idea: the grid is as large as the
    // GPU holds at once, and each thread strides through the array.
    const auto& device = harness().device;
    int threads_per_sm = 0;
    CUDA_CHECK(cudaDeviceGetAttribute(&threads_per_sm, cudaDevAttrMaxThreadsPerMultiProcessor, device.ordinal));
    basics::Problem problem(std::size_t{1} << 26, 7);
    const auto record = course::record_launches(problem.run(basics::step02_grid_stride).launch);
    REQUIRE(record.kernels.size() == 1);
    const auto& launch = record.kernels.front();
    const std::size_t one_wave = static_cast<std::size_t>(device.sm_count) * threads_per_sm;
    CHECK_MESSAGE(launch.blocks() * launch.threads_per_block() <= one_wave, launch.blocks(), " blocks of ",
                  launch.threads_per_block(), " threads for 2^26 floats; the GPU holds ", one_wave, " threads at once");
}

TEST_CASE("step 02 runs at least 0.85x as fast as the reference solution of step 02") {
    if (!course::testing::timing_is_meaningful()) return;
    // The course's speed rule (tests/speed_rule.h); the figures measured with it
    // are in lessons/basics/02_grid_stride/README.md.
    check_speed(2, basics::step01_vector_add, basics::solution::step02_grid_stride, basics::step02_grid_stride,
                "the float4 loads and stores in the grid-stride loop (the vector path must "
                "be the one taken for aligned arrays); the README's Nsight Compute command "
                "counts the load instructions");
}
