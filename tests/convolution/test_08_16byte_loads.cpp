// Grading test of convolution step 08 (16-byte loads and stores). Built twice: against
// lessons/convolution/08_16byte_loads/kernel.cu (suite "grade") and against the
// reference solution (suite "solutions").
#include "doctest_include.h"

#include "convolution/helpers.h"
#include "gpu_test.h"

COURSE_SOLUTION_LAUNCHER(convolution, step08_16byte_loads)

namespace {

using namespace convolution;

const Step kStep{8, "step 08", step08_16byte_loads};
const Step kReference{8, "", solution::step08_16byte_loads};
const Step kPrevious{7, "step 07 (solution)", step07_strict_coalescing};
}  // namespace

TEST_CASE("step 08 is exact at every grading size, pitch and block shape") { testing::check_every_shape(kStep); }

TEST_CASE("step 08 loads its tile with a 16-byte apron: the launch and shared memory of the reference solution") {
    testing::check_launch_like_reference(kStep, kReference, /*shared_layout=*/true);
}

TEST_CASE("step 08 runs at least 0.85x as fast as the reference solution of step 08 (and its memory-only variant)") {
    if (!course::testing::timing_is_meaningful()) return;
    // The course's speed rule (tests/speed_rule.h); what the untouched starter
    // measures in it is in lessons/convolution/README.md's starters table.
    testing::check_speed({kPrevious, kReference, kStep}, /*memory_only_too=*/true,
                         "the tile loaded and the pixels stored as 16-byte words (uint4) where the rows are "
                         "aligned (the memory-only time shows the load alone); the README's Nsight Compute command "
                         "counts the load instructions");
}
