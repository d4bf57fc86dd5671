// Grading test of convolution step 01 (naive, global memory). Built twice: against
// lessons/convolution/01_naive_global/kernel.cu (suite "grade") and against the
// reference solution (suite "solutions").
#include "doctest_include.h"

#include "convolution_test.h"
#include "gpu_test.h"

namespace {

using namespace convolution;

const Step kStep{1, "step 01", step01_naive_global};
}  // namespace

TEST_CASE("step 01 is exact at every grading size, pitch and block shape") { testing::check_every_shape(kStep); }

// Step 01 has no speed requirement: it is the baseline every later step is
// measured against. Its test is correctness, every pixel, every shape.
