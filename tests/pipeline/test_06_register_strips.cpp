// Grading test of pipeline step 06 (the fused kernel in registers, strips of
// rows). Built twice: against lessons/pipeline/06_register_strips/kernel.cu
// (suite "grade") and against the reference solution (suite "solutions").
#include "doctest_include.h"

#include "gpu_test.h"
#include "pipeline/helpers.h"

COURSE_SOLUTION_LAUNCHER(pipeline, step06_register_strips)

namespace {

using namespace pipeline;

const Step kStep{6, "step 06", step06_register_strips};
const Step kReference{6, "", solution::step06_register_strips};
const Step kPrevious{5, "", step05_fused};
}  // namespace

TEST_CASE("step 06 is exact at every grading size and pitch, the border included") {
    testing::check_every_shape(kStep);
}

TEST_CASE("step 06 is one kernel that keeps everything in registers, several pixels per thread") {
    testing::check_register_kernel(
        kStep, kReference,
        "neighbouring columns come from the neighbouring lanes (__shfl), earlier rows from registers",
        "index the register arrays with constants only (loops the compiler unrolls)", " (4 columns and 16 rows each)");
}

TEST_CASE("step 06 runs at least 0.85x as fast as the reference solution of step 06") {
    if (!course::testing::timing_is_meaningful()) return;
    // The course's speed rule (tests/speed_rule.h).
    testing::check_speed({kPrevious, kReference, kStep},
                         "a warp walks down a strip 128 columns wide, each lane 4 columns: three 4-byte RGB loads and "
                         "one 4-byte store per row where the rows allow, the last 7 row sums and 3 blurred rows in "
                         "registers, neighbouring columns by __shfl, no shared memory; the README's Nsight Compute "
                         "command counts the instructions");
}
