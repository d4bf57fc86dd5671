// Grading test of separable step 02 (the filter in __constant__ memory). Built twice: against
// lessons/separable/02_constant_filter/kernel.cu (suite "grade") and against the
// reference solution (suite "solutions").
#include "separable/helpers.h"

using namespace separable::testing;

COURSE_SOLUTION_LAUNCHER(separable, step02_constant_filter)

TEST_CASE("step 02 filters every grading shape with every grading filter length") {
    check_every_shape(separable::step02_constant_filter);
}

TEST_CASE("step 02 copies the filter into constant memory, then launches its two kernels") {
    const auto record = launches_for(separable::step02_constant_filter, 2048, 2048, 7);
    CHECK(record.kernels.size() == 2);
    CHECK_MESSAGE(record.other_operations >= 1, "no copy before the kernels: the filter must be copied into the "
                                                "__constant__ array on the stream (cudaMemcpyToSymbolAsync)");
}

TEST_CASE("step 02's kernels read the filter from constant memory, not from params.weights") {
    for (const int taps : {7, 63}) {
        CAPTURE(taps);
        const course::CheckResult result =
            check_kernels_read_their_copy(separable::step02_constant_filter, 129, 67, taps);
        CHECK_MESSAGE(result.ok, "with params.weights zeroed after the copy, the kernels alone: ", result.summary(),
                      " (the kernels must read the __constant__ array, filter_weights[k])");
    }
    // And they read it where it was copied: in constant memory, which their
    // machine code reads as operands c[0x3][...]. A copy in a __device__
    // array passes the run above and fails here.
    std::string why;
    const std::vector<std::string> without = kernels_not_reading_constant_memory(
        separable::step02_constant_filter, COURSE_GRADED_LIBRARY, COURSE_CUOBJDUMP, why);
    REQUIRE_MESSAGE(why.empty(), why);
    std::string names;
    for (const std::string& name : without) names += (names.empty() ? "" : "; ") + name;
    CHECK_MESSAGE(without.empty(), "no read of constant memory (an operand c[0x3][...]) in the machine code of ", names,
                  ": the kernels must read the filter from the __constant__ array (a __device__ array is in "
                  "global memory, read with global loads)");
}

TEST_CASE("step 02 runs at least 0.85x as fast as the reference solution of step 02") {
    if (!course::testing::timing_is_meaningful()) return;
    // The course's speed rule (tests/speed_rule.h); what the untouched starter
    // measures in it is in lessons/separable/README.md's starters table.
    check_speed(2, separable::step01_naive, separable::solution::step02_constant_filter,
                separable::step02_constant_filter,
                "the weights read from the __constant__ array (filter_weights[k]), not from params.weights; the "
                "README's Nsight Compute command counts the global load instructions");
}
