// Grading test of convolution step 09 (bank conflicts resolved). Built twice: against
// lessons/convolution/09_bank_conflicts/kernel.cu (suite "grade") and against the
// reference solution (suite "solutions").
#include "doctest_include.h"

#include "convolution_test.h"
#include "gpu_test.h"

namespace {

using namespace convolution;

const Step kStep{9, "step 09", step09_bank_conflicts};
const Step kPrevious{8, "step 08 (solution)", step08_16byte_loads};
}  // namespace

TEST_CASE("step 09 is exact at every grading size, pitch and block shape") { testing::check_every_shape(kStep); }

TEST_CASE("step 09 is at least 1.06x as fast as step 08") {
    if (!course::testing::timing_is_meaningful()) return;
    // Step 08's computation reads shared memory with 4-way bank conflicts;
    // step 09's does not.
    constexpr double kMinimumSpeedupOverStep08 = 1.06;
    testing::check_speedup(kPrevious, kStep, kMinimumSpeedupOverStep08);
}
