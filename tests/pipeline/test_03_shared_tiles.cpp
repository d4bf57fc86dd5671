// Grading test of pipeline step 03 (shared-memory tiles). Built twice: against
// lessons/pipeline/03_shared_tiles/kernel.cu (suite "grade") and against the reference
// solution (suite "solutions").
#include "doctest_include.h"

#include "gpu_test.h"
#include "pipeline/helpers.h"

COURSE_SOLUTION_LAUNCHER(pipeline, step03_shared_tiles)

namespace {

using namespace pipeline;

const Step kStep{3, "step 03", step03_shared_tiles};
const Step kReference{3, "", solution::step03_shared_tiles};
const Step kPrevious{2, "", step02_warp_rows};
}  // namespace

TEST_CASE("step 03 is exact at every grading size and pitch, the border included") {
    testing::check_every_shape(kStep);
}

TEST_CASE("step 03's blur and Sobel kernels read their windows from shared memory") {
    const course::LaunchRecord record = testing::launches_of(kStep);
    REQUIRE_MESSAGE(record.kernels.size() == 3, record.kernels.size(), " kernels: grey, blur, Sobel");
    CHECK_MESSAGE(record.kernels[1].shared_bytes() > 0,
                  "the blur kernel uses no shared memory: load the tile of greys (with its 3-pixel halo) first");
    CHECK_MESSAGE(
        record.kernels[2].shared_bytes() > 0,
        "the Sobel kernel uses no shared memory: load the tile of blurred pixels (with its 1-pixel halo) first");
}

TEST_CASE("step 03 runs at least 0.85x as fast as the reference solution of step 03") {
    if (!course::testing::timing_is_meaningful()) return;
    // The course's speed rule (tests/speed_rule.h).
    testing::check_speed(
        {kPrevious, kReference, kStep},
        "a block first copies its tile of greys, halo included and clamped, into shared memory, then every thread "
        "reads its 49 greys from there (the Sobel likewise with 34x10 blurred bytes); 32x8 blocks keep the halo small");
}
