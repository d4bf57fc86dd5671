// Grading test of pipeline step 04 (the blur as two passes). Built twice: against
// lessons/pipeline/04_separable_blur/kernel.cu (suite "grade") and against the reference
// solution (suite "solutions").
#include "doctest_include.h"

#include "gpu_test.h"
#include "pipeline/helpers.h"

COURSE_SOLUTION_LAUNCHER(pipeline, step04_separable_blur)

namespace {

using namespace pipeline;

const Step kStep{4, "step 04", step04_separable_blur};
const Step kReference{4, "", solution::step04_separable_blur};
const Step kPrevious{3, "", step03_shared_tiles};
}  // namespace

TEST_CASE("step 04 is exact at every grading size and pitch, the border included") {
    testing::check_every_shape(kStep);
}

TEST_CASE("step 04 still runs three kernels, the blur's with its row sums in shared memory") {
    const course::LaunchRecord record = testing::launches_of(kStep);
    REQUIRE_MESSAGE(record.kernels.size() == 3, record.kernels.size(), " kernels: grey, blur, Sobel");
    const course::LaunchRecord reference = testing::launches_of(kReference);
    CHECK_MESSAGE(record.kernels[1].shared_bytes() >= reference.kernels[1].shared_bytes(),
                  record.kernels[1].shared_bytes(), " bytes of shared memory in the blur; the reference keeps the ",
                  "tile of greys and the tile's row sums (", reference.kernels[1].shared_bytes(), " bytes)");
}

TEST_CASE("step 04 runs at least 0.85x as fast as the reference solution of step 04") {
    if (!course::testing::timing_is_meaningful()) return;
    // The course's speed rule (tests/speed_rule.h).
    testing::check_speed({kPrevious, kReference, kStep},
                         "the 7x7 weights are the outer product of 1 2 3 4 3 2 1 with itself: filter each row of the "
                         "tile first (7 taps, into a second shared array), __syncthreads(), then each column of the "
                         "row sums (7 taps): 14 multiply-adds per pixel instead of 49");
}
