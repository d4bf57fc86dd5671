// The grading checks itself (matmul 09): step 09's check without a clock
// (tests/matmul/stages.h) must fail the untouched starter, step 08's
// solution (its tiles go through registers: no cp.async), and a plant, step
// 09's solution built with two stages (tests/matmul/meson.build: cp.async,
// but its wait, before it copies the next tile, is for every copy issued so
// far), and pass step 09's solution. A change that loosens the check so far
// that the starter or the plant passes fails here.
#include "doctest_include.h"
#include "matmul/stages.h"

// The plant's launcher, in the namespace its library was built into.
namespace matmul::two_stages {
decltype(::matmul::step09_async_copies) step09_async_copies;
}

TEST_CASE("step 09's copies check fails step 08's solution (the starter) and two stages, and passes step 09's") {
    if (!matmul::testing::built_with_async_copies(matmul::step09_async_copies)) {
        MESSAGE(
            "step 09's kernels run code for a compute capability below 8.0, which has no cp.async: nothing to show");
        return;
    }
    const auto starter =
        matmul::testing::check_copies_in_flight(matmul::step08_warp_tiling, MATMUL_SOLUTION_08_LIBRARY);
    MESSAGE("starter: ", starter.what);
    CHECK_FALSE(starter.ok);
    const auto two_stages = matmul::testing::check_copies_in_flight(matmul::two_stages::step09_async_copies,
                                                                    MATMUL_PLANT_TWO_STAGES_LIBRARY);
    MESSAGE("two stages: ", two_stages.what);
    CHECK_FALSE(two_stages.ok);
    const auto solution =
        matmul::testing::check_copies_in_flight(matmul::step09_async_copies, MATMUL_SOLUTION_09_LIBRARY);
    MESSAGE("solution: ", solution.what);
    CHECK_MESSAGE(solution.ok, solution.what);
}
