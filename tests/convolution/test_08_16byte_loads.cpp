// Grading test of convolution step 08 (16-byte loads and stores). Built twice: against
// lessons/convolution/08_16byte_loads/kernel.cu (suite "grade") and against the
// reference solution (suite "solutions").
#include "doctest_include.h"

#include "convolution_test.h"
#include "gpu_test.h"

namespace {

using namespace convolution;

const Step kStep{8, "step 08", step08_16byte_loads};
const Step kPrevious{7, "step 07 (solution)", step07_strict_coalescing};
}  // namespace

TEST_CASE("step 08 is exact at every grading size, pitch and block shape") { testing::check_every_shape(kStep); }

TEST_CASE("step 08's memory traffic is at least 1.10x as fast as step 07's") {
    if (!course::testing::timing_is_meaningful()) return;
    // What 16-byte words buy: the same bytes with a quarter of the load and
    // store instructions. The full kernel may well be slower than step 07's
    // (the talk's was: bank conflicts, the subject of step 09), so the
    // requirement is on the memory-only variants.
    constexpr double kMinimumMemoryOnlySpeedupOverStep07 = 1.10;
    testing::check_speedup(kPrevious, kStep, kMinimumMemoryOnlySpeedupOverStep07, testing::Variant::memory_only);
}
