// Grading test of convolution step 06 (global to shared memory, shifted byte reads). Built twice: against
// lessons/convolution/06_global_shared/kernel.cu (suite "grade") and against the
// reference solution (suite "solutions").
#include "doctest_include.h"

#include "convolution_test.h"
#include "gpu_test.h"

namespace {

using namespace convolution;

const Step kStep{6, "step 06", step06_global_shared};
const Step kPrevious{5, "step 05 (solution)", step05_float_texture, step05_texture_desc};
}  // namespace

TEST_CASE("step 06 is exact at every grading size, pitch and block shape") { testing::check_every_shape(kStep); }

TEST_CASE("step 06 is at least 1.30x as fast as step 05") {
    if (!course::testing::timing_is_meaningful()) return;
    // Four pixels per thread from a shared tile: 40 shared-memory reads for
    // four pixels instead of 100, and no texture fetches at all.
    constexpr double kMinimumSpeedupOverStep05 = 1.30;
    testing::check_speedup(kPrevious, kStep, kMinimumSpeedupOverStep05);
}
