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
    // The starter's blur (step 03's) keeps the tile of greys; the reference's
    // adds 14 x 32 row sums of 4 bytes (ints). A row sum is at most 4080, so
    // 16-bit sums are as exact: the blur must keep at least the tile and half
    // the reference's row sums' bytes.
    const course::LaunchRecord record = testing::launches_of(kStep);
    REQUIRE_MESSAGE(record.kernels.size() == 3, record.kernels.size(), " kernels: grey, blur, Sobel");
    const std::size_t tile = testing::launches_of(kPrevious).kernels.at(1).shared_bytes();
    const std::size_t reference = testing::launches_of(kReference).kernels.at(1).shared_bytes();
    const std::size_t needed = tile + (reference - tile) / 2;
    CHECK_MESSAGE(record.kernels[1].shared_bytes() >= needed, record.kernels[1].shared_bytes(),
                  " bytes of shared memory in the blur; the tile of greys takes ", tile,
                  " bytes (step 03's), and the tile's row sums at least ", needed - tile,
                  " more as 16-bit sums (the reference's ints: ", reference - tile, ")");
}

TEST_CASE("step 04 runs at least 0.85x as fast as the reference solution of step 04") {
    if (!course::testing::timing_is_meaningful()) return;
    // The course's speed rule (tests/speed_rule.h).
    testing::check_speed({kPrevious, kReference, kStep},
                         "the 7x7 weights are the outer product of 1 2 3 4 3 2 1 with itself: filter each row of the "
                         "tile first (7 taps, into a second shared array), __syncthreads(), then each column of the "
                         "row sums (7 taps): 14 multiply-adds per pixel instead of 49");
}
