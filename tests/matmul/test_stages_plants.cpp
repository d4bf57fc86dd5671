// The grading checks itself (matmul 09): step 09's check without a clock
// (tests/matmul/stages.h) must fail the untouched starter, step 08's
// solution (two stages of tiles, static shared memory), and pass step 09's
// solution. A change that loosens the check so far that the starter passes
// fails here.
#include "doctest_include.h"
#include "matmul/stages.h"

TEST_CASE("step 09's three-stage check fails step 08's solution (the starter) and passes step 09's") {
    const auto starter = matmul::testing::check_three_stages(matmul::step08_warp_tiling, matmul::step08_warp_tiling);
    MESSAGE("starter: ", starter.what);
    CHECK_FALSE(starter.ok);
    const auto solution = matmul::testing::check_three_stages(matmul::step09_async_copies, matmul::step08_warp_tiling);
    MESSAGE("solution: ", solution.what);
    CHECK_MESSAGE(solution.ok, solution.what);
}
