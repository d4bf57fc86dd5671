// Grading test of convolution step 04 (texture into shared memory). Built twice: against
// lessons/convolution/04_texture_shared/kernel.cu (suite "grade") and against the
// reference solution (suite "solutions").
#include "doctest_include.h"

#include "convolution_test.h"
#include "gpu_test.h"

namespace {

using namespace convolution;

const Step kStep{4, "step 04", step04_texture_shared, step04_texture_desc};
const Step kPrevious{3, "step 03 (solution)", step03_texture_4px, step03_texture_desc};
}  // namespace

TEST_CASE("step 04 is exact at every grading size, pitch and block shape") { testing::check_every_shape(kStep); }

TEST_CASE("step 04 reads its input through the texture") { testing::check_reads_through_texture(kStep); }

TEST_CASE("step 04 is at least 1.20x as fast as step 03") {
    if (!course::testing::timing_is_meaningful()) return;
    // About 1.6 texture fetches per pixel (a 20x20 tile for 16x16 pixels)
    // instead of 10, and the 25 reads per pixel from shared memory.
    constexpr double kMinimumSpeedupOverStep03 = 1.20;
    testing::check_speedup(kPrevious, kStep, kMinimumSpeedupOverStep03);
}
