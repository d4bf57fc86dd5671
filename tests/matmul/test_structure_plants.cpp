// The grading checks itself (matmul 03, 06, 07 and 08): the checks without a
// clock of tests/matmul/structure.h must fail the untouched starters, the step
// before's solution (step 02's: no shared memory; step 05's: one kernel, no
// float4 path; step 06's: unpadded tiles; step 07's: one stage of tiles, each
// warp two rows of 16 threads across the block's tile), and pass the step's
// own solution. A change that loosens a check so far that its starter passes
// fails here.
#include "doctest_include.h"
#include "matmul/structure.h"

TEST_CASE("step 03's shared-memory check fails step 02's solution (the starter) and passes step 03's") {
    constexpr long long kTwoTiles = 2 * 16 * 16 * sizeof(float);
    const auto starter = matmul::testing::check_shared_at_least(matmul::step02_coalesced, kTwoTiles, "two tiles");
    MESSAGE("starter: ", starter.what);
    CHECK_FALSE(starter.ok);
    const auto solution = matmul::testing::check_shared_at_least(matmul::step03_shared_tiles, kTwoTiles, "two tiles");
    CHECK_MESSAGE(solution.ok, solution.what);
}

TEST_CASE("step 07's padding check fails step 06's solution (the starter) and passes step 07's") {
    const long long padded = matmul::testing::shared_bytes_launched(matmul::step07_bank_conflicts);
    const auto starter = matmul::testing::check_shared_at_least(matmul::step06_vector_loads, padded, "padded tiles");
    MESSAGE("starter: ", starter.what);
    CHECK_FALSE(starter.ok);
    const auto solution = matmul::testing::check_shared_at_least(matmul::step07_bank_conflicts, padded, "padded tiles");
    CHECK_MESSAGE(solution.ok, solution.what);
}

TEST_CASE("step 08's two-stage check fails step 07's solution (the starter) and passes step 08's") {
    const auto starter =
        matmul::testing::check_two_stages(matmul::step07_bank_conflicts, matmul::step07_bank_conflicts);
    MESSAGE("starter: ", starter.what);
    CHECK_FALSE(starter.ok);
    const auto solution = matmul::testing::check_two_stages(matmul::step08_warp_tiling, matmul::step07_bank_conflicts);
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
    const auto starter = matmul::testing::check_float4_path(matmul::step05_2d_blocking, MATMUL_SOLUTION_05_LIBRARY);
    MESSAGE("starter: ", starter.what);
    CHECK_FALSE(starter.ok);
    const auto solution = matmul::testing::check_float4_path(matmul::step06_vector_loads, MATMUL_SOLUTION_06_LIBRARY);
    CHECK_MESSAGE(solution.ok, solution.what);
}
