// Grading test of convolution step 05 (float texture into shared memory). Built twice: against
// lessons/convolution/05_float_texture/kernel.cu (suite "grade") and against the
// reference solution (suite "solutions").
#include "doctest_include.h"

#include "convolution/helpers.h"
#include "gpu_test.h"

COURSE_SOLUTION_LAUNCHER(convolution, step05_float_texture)
COURSE_SOLUTION_LAUNCHER(convolution, step05_float_texture_desc)

namespace {

using namespace convolution;

const Step kStep{5, "step 05", step05_float_texture, step05_float_texture_desc};
const Step kReference{5, "", solution::step05_float_texture, solution::step05_float_texture_desc};
const Step kPrevious{4, "step 04 (solution)", step04_texture_shared, step04_texture_shared_desc};
}  // namespace

TEST_CASE("step 05 is exact at every grading size, pitch and block shape") { testing::check_every_shape(kStep); }

TEST_CASE("step 05 reads its input through the texture") { testing::check_reads_through_texture(kStep); }

TEST_CASE("step 05's texture hands out normalized floats") {
    // The step's point: the texture unit converts each byte b to b / 255.
    const cudaTextureDesc desc = step05_float_texture_desc();
    CHECK_MESSAGE(desc.readMode == cudaReadModeNormalizedFloat,
                  "step05_float_texture_desc() must ask for cudaReadModeNormalizedFloat");
    CHECK(desc.filterMode == cudaFilterModePoint);
    CHECK(desc.normalizedCoords == 0);
}

TEST_CASE("step 05 keeps its tile as floats in shared memory: the launch and shared memory of the reference solution") {
    testing::check_launch_like_reference(kStep, kReference, /*shared_layout=*/true);
}

TEST_CASE("step 05 runs at least 0.85x as fast as the reference solution of step 05") {
    if (!course::testing::timing_is_meaningful()) return;
    // The course's speed rule (tests/speed_rule.h); what the untouched starter
    // measures in it is in lessons/convolution/README.md's starters table.
    testing::check_speed({kPrevious, kReference, kStep}, /*memory_only_too=*/false,
                         "the texture read as normalized floats (cudaReadModeNormalizedFloat), the tile kept as "
                         "floats in shared memory; the README's Nsight Compute command compares the two steps");
}
