// Grading test of convolution step 03 (texture, four pixels per thread). Built twice: against
// lessons/convolution/03_texture_4px/kernel.cu (suite "grade") and against the
// reference solution (suite "solutions").
#include "doctest_include.h"

#include "convolution/helpers.h"
#include "gpu_test.h"

COURSE_SOLUTION_LAUNCHER(convolution, step03_texture_4px)
COURSE_SOLUTION_LAUNCHER(convolution, step03_texture_4px_desc)

namespace {

using namespace convolution;

const Step kStep{3, "step 03", step03_texture_4px, step03_texture_4px_desc};
const Step kReference{3, "", solution::step03_texture_4px, solution::step03_texture_4px_desc};
const Step kPrevious{2, "step 02 (solution)", step02_texture, step02_texture_desc};
}  // namespace

TEST_CASE("step 03 is exact at every grading size, pitch and block shape") { testing::check_every_shape(kStep); }

TEST_CASE("step 03 reads its input through the texture") { testing::check_reads_through_texture(kStep); }

TEST_CASE("step 03 computes four pixels per thread: no more blocks than the reference solution") {
    testing::check_launch_like_reference(kStep, kReference, /*shared_layout=*/false);
}

TEST_CASE("step 03 runs at least 0.85x as fast as the reference solution of step 03") {
    if (!course::testing::timing_is_meaningful()) return;
    // The course's speed rule (tests/speed_rule.h); what the untouched starter
    // measures in it is in lessons/convolution/README.md's starters table.
    testing::check_speed({kPrevious, kReference, kStep}, /*memory_only_too=*/false,
                         "four consecutive pixels per thread, so that a thread's neighbouring texels are fetched "
                         "once; the README's Nsight Compute command counts the texture instructions");
}
