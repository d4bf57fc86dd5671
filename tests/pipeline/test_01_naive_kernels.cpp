// Grading test of pipeline step 01 (three naive kernels, 8x8 blocks). Built twice: against
// lessons/pipeline/01_naive_kernels/kernel.cu (suite "grade") and against the reference
// solution (suite "solutions").
#include "doctest_include.h"

#include "gpu_test.h"
#include "pipeline/helpers.h"

COURSE_SOLUTION_LAUNCHER(pipeline, step01_naive_kernels)

namespace {

using namespace pipeline;

const Step kStep{1, "step 01", step01_naive_kernels};
const Step kReference{1, "", solution::step01_naive_kernels};
}  // namespace

TEST_CASE("step 01 is exact at every grading size and pitch, the border included") {
    testing::check_every_shape(kStep);
}

TEST_CASE("step 01 runs three kernels, one thread per pixel each") {
    const course::LaunchRecord record = testing::launches_of(kStep);
    REQUIRE_MESSAGE(record.kernels.size() == 3, record.kernels.size(),
                    " kernels: one per stage (grey, blur, Sobel), each reading the image the one before wrote");
    for (const course::KernelLaunch& kernel : record.kernels)
        CHECK_MESSAGE(kernel.blocks() * kernel.threads_per_block() >= std::size_t{2048} * 2048,
                      (kernel.blocks() * kernel.threads_per_block()),
                      " threads for 2048x2048 pixels: one thread per pixel");
}

TEST_CASE("step 01 runs at least 0.85x as fast as the reference solution of step 01") {
    if (!course::testing::timing_is_meaningful()) return;
    // The course's speed rule (tests/speed_rule.h).
    testing::check_speed({kReference, kStep},
                         "one thread per pixel in each of the three kernels, 8x8 blocks, the 7x7 window read straight "
                         "from global memory; the README's Nsight Compute command profiles the three kernels");
}
