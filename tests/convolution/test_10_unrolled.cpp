// Grading test of convolution step 10 (unrolled, four products per instruction). Built twice: against
// lessons/convolution/10_unrolled/kernel.cu (suite "grade") and against the
// reference solution (suite "solutions").
#include "doctest_include.h"

#include "convolution_test.h"
#include "gpu_test.h"

namespace {

using namespace convolution;

const Step kStep{10, "step 10", step10_unrolled};
const Step kPrevious{9, "step 09 (solution)", step09_bank_conflicts};
}  // namespace

TEST_CASE("step 10 is exact at every grading size, pitch and block shape") { testing::check_every_shape(kStep); }

TEST_CASE("step 10 is exact with a scale that is not a power of two") {
    // The shift is only for scales 2^-k; any other scale must take the
    // track's float rule.
    Filter filter = kFilter;
    filter.scale = 0.0137f;
    for (const testing::Shape& shape : {testing::Shape{127, 65}, testing::Shape{1023, 17, 1025}}) {
        CAPTURE(shape.describe());
        Problem problem(test_image(shape.width, shape.height, 5), shape.pitch, filter);
        Params params = problem.params();
        params.filter = filter;
        const auto result = course::check_once(course::testing::harness(), problem.run(kStep.launch, params));
        CHECK_MESSAGE(result.ok, result.summary());
    }
}

TEST_CASE("step 10 is at least 1.15x as fast as step 09") {
    if (!course::testing::timing_is_meaningful()) return;
    // 15 four-byte shared loads and 40 dot products per word of four pixels,
    // instead of 40 byte loads and 100 multiply-adds.
    constexpr double kMinimumSpeedupOverStep09 = 1.15;
    testing::check_speedup(kPrevious, kStep, kMinimumSpeedupOverStep09);
}
