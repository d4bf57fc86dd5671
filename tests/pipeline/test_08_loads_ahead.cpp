// Grading test of pipeline step 08 (RGB rows loaded ahead, one loop per
// case). Built twice: against lessons/pipeline/08_loads_ahead/kernel.cu
// (suite "grade") and against the reference solution (suite "solutions").
#include "doctest_include.h"

#include "gpu_test.h"
#include "pipeline/helpers.h"

COURSE_SOLUTION_LAUNCHER(pipeline, step08_loads_ahead)

namespace {

using namespace pipeline;

const Step kStep{8, "step 08", step08_loads_ahead};
const Step kReference{8, "", solution::step08_loads_ahead};
const Step kPrevious{7, "", step07_packed_bytes};
}  // namespace

TEST_CASE("step 08 is exact at every grading size and pitch, the border included") {
    testing::check_every_shape(kStep);
}

TEST_CASE("step 08 is still one kernel in registers, several pixels per thread") {
    testing::check_register_kernel(
        kStep, kReference, "step 06's strips keep everything in registers",
        "index the rows loaded ahead with constants only (slot t % kAhead in a walk unrolled by 4 rows)",
        " (4 columns and 16 rows each)");
}

TEST_CASE("step 08 walks each case in a loop of its own: a kernel per alignment") {
    const testing::StructureCheck check = testing::check_kernel_per_alignment(kStep.launch);
    CHECK_MESSAGE(check.ok, check.what);
}

TEST_CASE("step 08 runs at least 0.85x as fast as the reference solution of step 08") {
    if (!course::testing::timing_is_meaningful()) return;
    // The course's speed rule (tests/speed_rule.h).
    testing::check_speed({kPrevious, kReference, kStep},
                         "the RGB words of row t + 2 loaded while row t is computed, one walk per case "
                         "(Way<words, clamp_rows>: no branch per row, which would make the compiler copy the words "
                         "loaded ahead and wait for them), a kernel per alignment; the README's Nsight Compute "
                         "command shows the long-scoreboard stalls");
}
