// Grading test of basics step 02 (grid-stride loop, 16-byte loads). Built twice:
// against lessons/basics/02_grid_stride/kernel.cu (suite "grade") and against
// the reference solution (suite "solutions").
#include "basics/helpers.h"
#include "course/launches.h"
#include "sass_listing.h"
#include "shifted_arrays.h"

#include <string>

// The static library built from the kernel.cu this test grades (tests/meson.build).
#ifndef COURSE_GRADED_LIBRARY
#define COURSE_GRADED_LIBRARY ""
#endif

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

TEST_CASE("step 02 loads and stores 16 bytes at a time where the arrays allow it (its machine code)") {
    // The float4 half of the step, which the race alone need not see (it
    // times the whole step, and a grid-stride loop of 4-byte loads may come
    // within its 0.85x): the kernel the launcher enqueues for 16-byte aligned arrays, read from
    // the graded library with cuobjdump -sass, must hold 16-byte global loads
    // and stores (LDG.E.128, STG.E.128), where step 01's has 4-byte ones.
    basics::Problem problem(std::size_t{1} << 20, 9);
    const auto record = course::record_launches(problem.run(basics::step02_grid_stride).launch);
    REQUIRE(record.kernels.size() == 1);
    std::string name, why;
    course::testing::KernelCode code;
    REQUIRE_MESSAGE(course::testing::launched_kernel_code(record.kernels.front().function, COURSE_CUOBJDUMP,
                                                          COURSE_GRADED_LIBRARY, name, code, why),
                    why);
    const std::size_t loads = course::testing::count_lines_with(code.lines, {"LDG.", ".128"});
    const std::size_t stores = course::testing::count_lines_with(code.lines, {"STG.", ".128"});
    const std::string seen = "for 2^20 aligned floats the kernel launched, " + name + ", has " + std::to_string(loads) +
                             " 16-byte loads (LDG...128) and " + std::to_string(stores) +
                             " 16-byte stores (STG...128) in its machine code";
    MESSAGE(seen);
    CHECK_MESSAGE((loads > 0 && stores > 0), seen, ": float4 loads and stores on the aligned path");
}

TEST_CASE("step 02 runs at least 0.85x as fast as the reference solution of step 02") {
    if (!course::testing::timing_is_meaningful()) return;
    // The course's speed rule (tests/speed_rule.h); what the untouched starter
    // measures in it is in lessons/basics/README.md's starters table.
    check_speed(2, basics::step01_vector_add, basics::solution::step02_grid_stride, basics::step02_grid_stride,
                "the float4 loads and stores in the grid-stride loop (the vector path must "
                "be the one taken for aligned arrays); the README's Nsight Compute command "
                "counts the load instructions");
}
