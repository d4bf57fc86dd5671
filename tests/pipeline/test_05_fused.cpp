// Grading test of pipeline step 05 (one fused kernel). Built twice: against
// lessons/pipeline/05_fused/kernel.cu (suite "grade") and against the reference
// solution (suite "solutions").
#include "doctest_include.h"

#include "gpu_test.h"
#include "pipeline/helpers.h"

COURSE_SOLUTION_LAUNCHER(pipeline, step05_fused)

namespace {

using namespace pipeline;

const Step kStep{5, "step 05", step05_fused};
const Step kReference{5, "", solution::step05_fused};
const Step kPrevious{4, "", step04_separable_blur};
}  // namespace

TEST_CASE("step 05 is exact at every grading size and pitch, the border included") {
    testing::check_every_shape(kStep);
}

TEST_CASE("step 05 is one kernel that keeps its tiles in shared memory") {
    const course::LaunchRecord record = testing::launches_of(kStep);
    REQUIRE_MESSAGE(record.kernels.size() == 1, record.kernels.size(),
                    " kernels: fuse the three stages into one, so that the grey and blurred images never go to memory");
    CHECK_MESSAGE(record.kernels[0].shared_bytes() > 0,
                  "the fused kernel keeps its grey and blurred tiles in shared memory");
}

TEST_CASE("step 05 runs at least 0.85x as fast as the reference solution of step 05") {
    if (!course::testing::timing_is_meaningful()) return;
    // The course's speed rule (tests/speed_rule.h).
    testing::check_speed(
        {kPrevious, kReference, kStep},
        "one kernel: each block computes the greys of its 40x16 tile from RGB, the row sums, the blurred 34x10 tile, "
        "and its 32x8 edge pixels, all in shared memory; only the RGB pixels are read and only the edges written");
}
