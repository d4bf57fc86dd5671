// Grading test of convolution step 03 (texture, four pixels per thread). Built twice: against
// lessons/convolution/03_texture_4px/kernel.cu (suite "grade") and against the
// reference solution (suite "solutions").
#include "doctest_include.h"

#include "convolution_test.h"
#include "gpu_test.h"

namespace {

using namespace convolution;

const Step kStep{3, "step 03", step03_texture_4px, step03_texture_desc};
const Step kPrevious{2, "step 02 (solution)", step02_texture, step02_texture_desc};
}  // namespace

TEST_CASE("step 03 is exact at every grading size, pitch and block shape") { testing::check_every_shape(kStep); }

TEST_CASE("step 03 reads its input through the texture") { testing::check_reads_through_texture(kStep); }

TEST_CASE("step 03 is at least 1.30x as fast as step 02") {
    if (!course::testing::timing_is_meaningful()) return;
    // 40 texture fetches and one 32-bit store for four pixels, instead of
    // 100 fetches and four byte stores. The threshold, and the figures it
    // was calibrated on, are in the lesson README.
    constexpr double kMinimumSpeedupOverStep02 = 1.30;
    testing::check_speedup(kPrevious, kStep, kMinimumSpeedupOverStep02);
}
