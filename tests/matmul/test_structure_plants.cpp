// The grading checks itself (matmul 06 and 08): the checks without a clock
// of tests/matmul/structure.h must fail the untouched starters, the step
// before's solution (step 05's: one kernel, no float4 path; step 07's: one
// stage of tiles, each warp two rows of 16 threads across the block's tile),
// and pass the step's own solution. A change that loosens a check so far
// that its starter passes fails here.
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

TEST_CASE("step 06's float4-path check fails step 05's solution (the starter) and passes step 06's") {
    const auto starter = matmul::testing::check_float4_path(matmul::step05_2d_blocking);
    MESSAGE("starter: ", starter.what);
    CHECK_FALSE(starter.ok);
    const auto solution = matmul::testing::check_float4_path(matmul::step06_vector_loads);
    CHECK_MESSAGE(solution.ok, solution.what);
}
