// Grading test of pipeline step 07 (packed byte arithmetic and running box
// sums). Built twice: against lessons/pipeline/07_packed_bytes/kernel.cu
// (suite "grade") and against the reference solution (suite "solutions").
#include "doctest_include.h"

#include "gpu_test.h"
#include "pipeline/helpers.h"

COURSE_SOLUTION_LAUNCHER(pipeline, step07_packed_bytes)

namespace {

using namespace pipeline;

const Step kStep{7, "step 07", step07_packed_bytes};
const Step kReference{7, "", solution::step07_packed_bytes};
const Step kPrevious{6, "", step06_register_strips};
}  // namespace

TEST_CASE("step 07 is exact at every grading size and pitch, the border included") {
    testing::check_every_shape(kStep);
}

TEST_CASE("step 07 is still one kernel in registers, several pixels per thread") {
    testing::check_register_kernel(kStep, kReference, "step 06's strips keep everything in registers",
                                   "index the rings of the box sums with constants only (the walk unrolled by 4 rows)",
                                   " (4 columns and 16 rows each)");
}

TEST_CASE("step 07 runs at least 0.85x as fast as the reference solution of step 07") {
    if (!course::testing::timing_is_meaningful()) return;
    // The course's speed rule (tests/speed_rule.h). Step 07 changes only
    // the instructions, which no launch attribute shows: the race is the
    // check of its idea.
    testing::check_speed({kPrevious, kReference, kStep},
                         "the greys as __dp2a (two per pixel), the row sums as __dp4a, two per word as 16-bit "
                         "halves, the column pass as two running 4-row box sums, the Sobel as dp4a on words of "
                         "3 blurred pixels, the capped sqrt.approx; the README's Nsight Compute command counts the "
                         "instructions");
}
