// Grading test of convolution step 02 (texture, one pixel per thread). Built twice: against
// lessons/convolution/02_texture/kernel.cu (suite "grade") and against the
// reference solution (suite "solutions").
#include "doctest_include.h"

#include "convolution_test.h"
#include "gpu_test.h"

namespace {

using namespace convolution;

const Step kStep{2, "step 02", step02_texture, step02_texture_desc};
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

TEST_CASE("step 02 is timed next to step 01 (no speed requirement: see the README)") {
    if (!course::testing::timing_is_meaningful()) return;
    // On the 8800 GT the texture was the cache that global memory lacked
    // (148 ms to 7.8 ms). Today global loads are cached in the same L1, and
    // this step's speed against step 01 depends on the GPU's texture fetch
    // rate; it is printed, and the README discusses it, but not required.
    const auto measured = testing::ladder_2048({kPrevious, kStep});
    MESSAGE("step 02 ran at ", testing::speedup(measured, 1), "x the speed of step 01");
}
