// Grading test of convolution step 02 (texture, one pixel per thread). Built twice: against
// lessons/convolution/02_texture/kernel.cu (suite "grade") and against the
// reference solution (suite "solutions").
#include "doctest_include.h"

#include "convolution/helpers.h"
#include "gpu_test.h"

COURSE_SOLUTION_LAUNCHER(convolution, step02_texture)
COURSE_SOLUTION_LAUNCHER(convolution, step02_texture_desc)

namespace {

using namespace convolution;

const Step kStep{2, "step 02", step02_texture, step02_texture_desc};
const Step kReference{2, "", solution::step02_texture, solution::step02_texture_desc};
const Step kPrevious{1, "step 01 (solution)", step01_naive_global};
}  // namespace

TEST_CASE("step 02 is exact at every grading size, pitch and block shape") { testing::check_every_shape(kStep); }

TEST_CASE("step 02 reads its input through the texture") { testing::check_reads_through_texture(kStep); }

TEST_CASE("step 02's texture reads bytes as they are, at pixel coordinates, clamped at the edges") {
    const cudaTextureDesc desc = step02_texture_desc();
    CHECK(desc.readMode == cudaReadModeElementType);
    CHECK(desc.filterMode == cudaFilterModePoint);
    CHECK(desc.normalizedCoords == 0);
    CHECK(desc.addressMode[0] == cudaAddressModeClamp);
    CHECK(desc.addressMode[1] == cudaAddressModeClamp);
}

TEST_CASE("step 02 runs at least 0.85x as fast as the reference solution of step 02") {
    if (!course::testing::timing_is_meaningful()) return;
    // The course's speed rule (tests/speed_rule.h); what the untouched starter
    // measures in it is in lessons/convolution/README.md's starters table.
    testing::check_speed({kPrevious, kReference, kStep}, /*memory_only_too=*/false,
                         "every read through tex2D<unsigned char> on params.texture, one pixel per thread; the "
                         "README's Nsight Compute command counts the texture instructions");
}
