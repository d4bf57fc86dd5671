// Grading test of convolution step 07 (strict coalescing, 32-bit words). Built twice: against
// lessons/convolution/07_strict_coalescing/kernel.cu (suite "grade") and against the
// reference solution (suite "solutions").
#include "doctest_include.h"

#include "convolution/helpers.h"
#include "gpu_test.h"

COURSE_SOLUTION_LAUNCHER(convolution, step07_strict_coalescing)

namespace {

using namespace convolution;

const Step kStep{7, "step 07", step07_strict_coalescing};
const Step kReference{7, "", solution::step07_strict_coalescing};
const Step kPrevious{6, "step 06 (solution)", step06_global_shared};
}  // namespace

TEST_CASE("step 07 is exact at every grading size, pitch and block shape") { testing::check_every_shape(kStep); }

TEST_CASE("step 07 loads its tile with a one-word apron: the launch and shared memory of the reference solution") {
    testing::check_launch_like_reference(kStep, kReference, /*shared_layout=*/true);
}

TEST_CASE("step 07 runs at least 0.85x as fast as the reference solution of step 07 (and its memory-only variant)") {
    if (!course::testing::timing_is_meaningful()) return;
    // The course's speed rule (tests/speed_rule.h); what the untouched starter
    // measures in it is in lessons/convolution/README.md's starters table.
    testing::check_speed({kPrevious, kReference, kStep}, /*memory_only_too=*/true,
                         "the tile loaded as aligned 32-bit words, a warp reading one contiguous stretch of each "
                         "row (the memory-only time shows the load alone); the README's Nsight Compute command "
                         "counts the global load instructions and shows the L1's hit rate");
}
