// Grading test of separable step 03 (shared-memory tiles with aprons). Built twice: against
// lessons/separable/03_shared_tiles/kernel.cu (suite "grade") and against the
// reference solution (suite "solutions").
#include "separable/helpers.h"

using namespace separable::testing;

COURSE_SOLUTION_LAUNCHER(separable, step03_shared_tiles)

TEST_CASE("step 03 filters every grading shape with every grading filter length") {
    check_every_shape(separable::step03_shared_tiles);
}

TEST_CASE("step 03 stages each block's pixels in shared memory, apron included") {
    const auto graded = launches_for(separable::step03_shared_tiles, 2048, 2048, 7);
    const auto reference = launches_for(separable::solution::step03_shared_tiles, 2048, 2048, 7);
    REQUIRE(graded.kernels.size() == 2);
    REQUIRE(reference.kernels.size() == 2);
    for (std::size_t i = 0; i < 2; ++i) {
        CAPTURE(i);
        CHECK_MESSAGE(graded.kernels[i].shared_bytes() >= reference.kernels[i].shared_bytes(),
                      graded.kernels[i].shared_bytes(),
                      " bytes of shared memory per block; the reference's tile "
                      "with its apron takes ",
                      reference.kernels[i].shared_bytes());
    }
}

TEST_CASE("step 03 runs at least 0.85x as fast as the reference solution of step 03") {
    if (!course::testing::timing_is_meaningful()) return;
    // The course's speed rule (tests/speed_rule.h); what the untouched starter
    // measures in it is in lessons/separable/README.md's starters table.
    check_speed(3, separable::step02_constant_filter, separable::solution::step03_shared_tiles,
                separable::step03_shared_tiles,
                "the tile copy: each pixel copied once into shared memory (in strides of the block), __syncthreads() "
                "between the copy and the sums, and the sums reading shared memory; the README's Nsight Compute "
                "command counts global and shared loads");
}
