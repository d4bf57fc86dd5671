// Grading test of convolution step 01 (naive, global memory). Built twice: against
// lessons/convolution/01_naive_global/kernel.cu (suite "grade") and against the
// reference solution (suite "solutions").
#include "doctest_include.h"

#include "convolution/helpers.h"
#include "gpu_test.h"

COURSE_SOLUTION_LAUNCHER(convolution, step01_naive_global)

namespace {

using namespace convolution;

const Step kStep{1, "step 01", step01_naive_global};
const Step kReference{1, "", solution::step01_naive_global};
}  // namespace

TEST_CASE("step 01 is exact at every grading size, pitch and block shape") { testing::check_every_shape(kStep); }

TEST_CASE("step 01 runs at least 0.85x as fast as the reference solution of step 01") {
    if (!course::testing::timing_is_meaningful()) return;
    // The course's speed rule (tests/speed_rule.h); what the untouched starter
    // measures in it is in lessons/convolution/README.md's starters table.
    testing::check_speed({kReference, kStep}, /*memory_only_too=*/false,
                         "each thread computing one pixel from 25 global loads, the border left as it is; the "
                         "README's Nsight Compute command counts the global load instructions");
}
