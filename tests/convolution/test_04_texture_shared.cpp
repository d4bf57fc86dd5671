// Grading test of convolution step 04 (texture into shared memory). Built twice: against
// lessons/convolution/04_texture_shared/kernel.cu (suite "grade") and against the
// reference solution (suite "solutions").
#include "doctest_include.h"

#include "convolution/helpers.h"
#include "gpu_test.h"

COURSE_SOLUTION_LAUNCHER(convolution, step04_texture_shared)
COURSE_SOLUTION_LAUNCHER(convolution, step04_texture_shared_desc)

namespace {

using namespace convolution;

const Step kStep{4, "step 04", step04_texture_shared, step04_texture_shared_desc};
const Step kReference{4, "", solution::step04_texture_shared, solution::step04_texture_shared_desc};
const Step kPrevious{3, "step 03 (solution)", step03_texture_4px, step03_texture_4px_desc};
}  // namespace

TEST_CASE("step 04 is exact at every grading size, pitch and block shape") { testing::check_every_shape(kStep); }

TEST_CASE("step 04 reads its input through the texture") { testing::check_reads_through_texture(kStep); }

TEST_CASE("step 04 stages its tile in shared memory: the launch and shared memory of the reference solution") {
    testing::check_launch_like_reference(kStep, kReference, /*shared_layout=*/true);
}

TEST_CASE("step 04 runs at least 0.85x as fast as the reference solution of step 04") {
    if (!course::testing::timing_is_meaningful()) return;
    // The course's speed rule (tests/speed_rule.h); what the untouched starter
    // measures in it is in lessons/convolution/README.md's starters table.
    testing::check_speed({kPrevious, kReference, kStep}, /*memory_only_too=*/false,
                         "the tile and its apron loaded from the texture into shared memory once, then the 25 "
                         "reads from shared memory; the README's Nsight Compute command counts the texture and "
                         "shared loads");
}
