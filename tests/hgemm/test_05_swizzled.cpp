// Grading test of hgemm step 05 (a swizzled shared-memory layout, 128 x 256
// block tiles of 64 x 64 warp tiles, fragments loaded one step ahead,
// addresses worked out before the main loop). Built
// twice: against lessons/hgemm/05_swizzled/kernel.cu (suite "grade") and
// against the reference solution (suite "solutions").
#include "hgemm/helpers.h"

COURSE_SOLUTION_LAUNCHER(hgemm, step05_swizzled)
COURSE_SOLUTION_LAUNCHER(hgemm, step05_swizzled_attributes)

TEST_CASE("step 05 computes C = A * B at every grading shape") {
    hgemm::testing::check_every_shape(hgemm::step05_swizzled, 500);
}

TEST_CASE("step 05 is right on matrices that do not start on a 32-byte boundary") {
    hgemm::testing::check_misaligned(hgemm::step05_swizzled, 510);
}

TEST_CASE("step 05 gives each warp at least 64 x 64 outputs, from packed tiles with no padding") {
    const auto check = hgemm::testing::check_packed_warp_tiles(hgemm::step05_swizzled);
    MESSAGE(check.what);
    CHECK_MESSAGE(check.ok, check.what);
}

TEST_CASE("step 05 keeps its fragments and accumulators in registers") {
    // 128 accumulators and two sets of fragments per lane: the register cap is
    // near, and a spill would show here as local memory.
    hgemm::testing::check_registers_only(hgemm::step05_swizzled_attributes());
}

TEST_CASE("step 05 runs at least 0.85x as fast as the reference solution of step 05") {
    if (!course::testing::timing_is_meaningful()) return;
    // The course's speed rule (tests/speed_rule.h).
    hgemm::testing::check_speed(
        {{4, "", hgemm::step04_async_copies, hgemm::step04_async_copies_attributes},
         {5, "", hgemm::solution::step05_swizzled, hgemm::solution::step05_swizzled_attributes},
         {5, "", hgemm::step05_swizzled, hgemm::step05_swizzled_attributes}},
        "4096",
        "the swizzle (chunk ^ f(row), the same function for the copies and the ldmatrix addresses), the 64 x 64 warp "
        "tiles, four stages, the fragments of the next 16 terms loaded before this step's mma.syncs, and every copy "
        "place and ldmatrix address worked out before the main loop; the README's Nsight Compute command shows the "
        "warp instructions, the bank conflicts, the stalls and the tensor pipe's use");
}
