// Grading test of separable step 04 (padded tiles, no bank conflicts). Built twice: against
// lessons/separable/04_padded_shared/kernel.cu (suite "grade") and against the
// reference solution (suite "solutions").
#include "separable/helpers.h"

using namespace separable::testing;

COURSE_SOLUTION_LAUNCHER(separable, step04_padded_shared)

TEST_CASE("step 04 filters every grading shape with every grading filter length") {
    check_every_shape(separable::step04_padded_shared);
}

TEST_CASE("step 04 pads the row pass's tile: at least the reference's shared memory") {
    for (const int taps : {7, 31}) {
        CAPTURE(taps);
        const auto graded = launches_for(separable::step04_padded_shared, 2048, 2048, taps);
        const auto reference = launches_for(separable::solution::step04_padded_shared, 2048, 2048, taps);
        REQUIRE(graded.kernels.size() == 2);
        REQUIRE(reference.kernels.size() == 2);
        CHECK_MESSAGE(graded.kernels[0].shared_bytes() >= reference.kernels[0].shared_bytes(),
                      "the row pass's tile takes ", graded.kernels[0].shared_bytes(),
                      " bytes; padded to a stride of "
                      "16 mod 32 words it takes ",
                      reference.kernels[0].shared_bytes());
    }
}

TEST_CASE("step 04 runs at least 0.85x as fast as the reference solution of step 04") {
    if (!course::testing::timing_is_meaningful()) return;
    // The course's speed rule (tests/speed_rule.h); what the untouched starter
    // measures in it is in lessons/separable/README.md's starters table.
    check_speed(4, separable::step03_shared_tiles, separable::solution::step04_padded_shared,
                separable::step04_padded_shared,
                "the row tile's stride: 16 mod 32 words, so that a warp's two half-rows fall on different banks; the "
                "README's Nsight Compute command counts the bank conflicts");
}
