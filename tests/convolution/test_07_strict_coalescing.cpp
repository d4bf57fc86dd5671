// Grading test of convolution step 07 (strict coalescing, 32-bit words). Built twice: against
// lessons/convolution/07_strict_coalescing/kernel.cu (suite "grade") and against the
// reference solution (suite "solutions").
#include "doctest_include.h"

#include "convolution_test.h"
#include "gpu_test.h"

namespace {

using namespace convolution;

const Step kStep{7, "step 07", step07_strict_coalescing};
const Step kPrevious{6, "step 06 (solution)", step06_global_shared};
}  // namespace

TEST_CASE("step 07 is exact at every grading size, pitch and block shape") { testing::check_every_shape(kStep); }

TEST_CASE("step 07's memory traffic is at least 1.05x as fast as step 06's") {
    if (!course::testing::timing_is_meaningful()) return;
    // The step changes only how the tile is loaded (aligned words instead of
    // shifted bytes), so the memory-only variants show it; the full kernels
    // differ by less than the computation they share.
    constexpr double kMinimumMemoryOnlySpeedupOverStep06 = 1.05;
    testing::check_speedup(kPrevious, kStep, kMinimumMemoryOnlySpeedupOverStep06, testing::Variant::memory_only);
}
