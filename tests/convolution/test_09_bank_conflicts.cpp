// Grading test of convolution step 09 (bank conflicts resolved). Built twice: against
// lessons/convolution/09_bank_conflicts/kernel.cu (suite "grade") and against the
// reference solution (suite "solutions").
#include "doctest_include.h"

#include "convolution/helpers.h"
#include "gpu_test.h"

COURSE_SOLUTION_LAUNCHER(convolution, step09_bank_conflicts)

namespace {

using namespace convolution;

const Step kStep{9, "step 09", step09_bank_conflicts};
const Step kReference{9, "", solution::step09_bank_conflicts};
const Step kPrevious{8, "step 08 (solution)", step08_16byte_loads};
}  // namespace

TEST_CASE("step 09 is exact at every grading size, pitch and block shape") { testing::check_every_shape(kStep); }

TEST_CASE("step 09 pads its tile rows and stages its results: the launch and shared memory of the reference solution") {
    testing::check_launch_like_reference(kStep, kReference, /*shared_layout=*/true);
}

TEST_CASE("step 09 runs at least 0.85x as fast as the reference solution of step 09") {
    if (!course::testing::timing_is_meaningful()) return;
    // The course's speed rule (tests/speed_rule.h); what the untouched starter
    // measures in it is in lessons/convolution/README.md's starters table.
    testing::check_speed({kPrevious, kReference, kStep}, /*memory_only_too=*/false,
                         "which words a thread computes: thread tx takes words tx, tx + blockDim.x, tx + "
                         "2*blockDim.x and tx + 3*blockDim.x, so a tile row's threads read consecutive words (no "
                         "4-way conflict); the results staged in shared memory for one 16-byte store per thread; "
                         "the tile and staging rows padded with conflict_free_stride, so that a 16-wide block's two "
                         "half-warps use different banks; the README's Nsight Compute command counts the bank "
                         "conflicts");
}
