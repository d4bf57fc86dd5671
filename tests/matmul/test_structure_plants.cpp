// The grading checks itself (matmul 08): step 08's checks without a clock
// (tests/matmul/structure.h) must fail the untouched starter, step 07's
// solution (one stage of tiles, each warp two rows of 16 threads across the
// block's tile), and pass step 08's solution. A change that loosens either
// check so far that the starter passes fails here.
#include "doctest_include.h"
#include "matmul/structure.h"

TEST_CASE("step 08's two-stage check fails step 07's solution (the starter) and passes step 08's") {
    const auto starter = matmul::testing::check_two_stages(matmul::step07_bank_conflicts, matmul::step08_warp_tiling);
    MESSAGE("starter: ", starter.what);
    CHECK_FALSE(starter.ok);
    const auto solution = matmul::testing::check_two_stages(matmul::step08_warp_tiling, matmul::step08_warp_tiling);
    CHECK_MESSAGE(solution.ok, solution.what);
}

TEST_CASE("step 08's warp-tile check fails step 07's solution (the starter) and passes step 08's") {
    const auto starter = matmul::testing::check_warp_tile(matmul::step07_bank_conflicts);
    MESSAGE("starter: ", starter.what);
    CHECK_FALSE(starter.ok);
    const auto solution = matmul::testing::check_warp_tile(matmul::step08_warp_tiling);
    MESSAGE("solution: ", solution.what);
    CHECK_MESSAGE(solution.ok, solution.what);
}
