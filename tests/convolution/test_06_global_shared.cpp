// Grading test of convolution step 06 (global to shared memory, shifted byte reads). Built twice: against
// lessons/convolution/06_global_shared/kernel.cu (suite "grade") and against the
// reference solution (suite "solutions").
#include "doctest_include.h"

#include "convolution/helpers.h"
#include "gpu_test.h"

COURSE_SOLUTION_LAUNCHER(convolution, step06_global_shared)

namespace {

using namespace convolution;

const Step kStep{6, "step 06", step06_global_shared};
const Step kReference{6, "", solution::step06_global_shared};
const Step kPrevious{5, "step 05 (solution)", step05_float_texture, step05_float_texture_desc};
}  // namespace

TEST_CASE("step 06 is exact at every grading size, pitch and block shape") { testing::check_every_shape(kStep); }

TEST_CASE("step 06 loads its tile into shared memory: the launch and shared memory of the reference solution") {
    testing::check_launch_like_reference(kStep, kReference, /*shared_layout=*/true);
}

TEST_CASE("step 06 runs at least 0.85x as fast as the reference solution of step 06") {
    if (!course::testing::timing_is_meaningful()) return;
    // The course's speed rule (tests/speed_rule.h); what the untouched starter
    // measures in it is in lessons/convolution/README.md's starters table.
    testing::check_speed({kPrevious, kReference, kStep}, /*memory_only_too=*/false,
                         "the tile loaded from global memory (not the texture) into shared memory, four pixels per "
                         "thread; the README's Nsight Compute command counts the global loads");
}
