// Grading test of pipeline step 02 (32x2 blocks). Built twice: against
// lessons/pipeline/02_warp_rows/kernel.cu (suite "grade") and against the reference
// solution (suite "solutions").
#include "doctest_include.h"

#include "gpu_test.h"
#include "pipeline/helpers.h"

COURSE_SOLUTION_LAUNCHER(pipeline, step02_warp_rows)

namespace {

using namespace pipeline;

const Step kStep{2, "step 02", step02_warp_rows};
const Step kReference{2, "", solution::step02_warp_rows};
const Step kPrevious{1, "", step01_naive_kernels};
}  // namespace

TEST_CASE("step 02 is exact at every grading size and pitch, the border included") {
    testing::check_every_shape(kStep);
}

TEST_CASE("step 02 runs three kernels whose warps each read along one row") {
    const course::LaunchRecord record = testing::launches_of(kStep);
    REQUIRE_MESSAGE(record.kernels.size() == 3, record.kernels.size(), " kernels: step 01's three, reshaped");
    for (const course::KernelLaunch& kernel : record.kernels)
        CHECK_MESSAGE(kernel.block.x % 32 == 0, "a block ", kernel.block.x, "x", kernel.block.y,
                      ": make blockDim.x a multiple of 32 (32x2), so that each warp covers one row of the image");
}

TEST_CASE("step 02 runs at least 0.85x as fast as the reference solution of step 02") {
    if (!course::testing::timing_is_meaningful()) return;
    // The course's speed rule (tests/speed_rule.h).
    testing::check_speed(
        {kPrevious, kReference, kStep},
        "blocks of 32x2 threads: a warp covers 32 consecutive bytes of one row, so each load touches one or two "
        "32-byte sectors instead of four rows' worth; the README's Nsight Compute command counts sectors per request");
}
