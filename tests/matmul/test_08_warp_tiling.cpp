// Grading test of matmul step 08 (warp tiling, double-buffered). Built twice:
// against lessons/matmul/08_warp_tiling/kernel.cu (suite "grade") and against
// the reference solution (suite "solutions").
#include "matmul/helpers.h"
#include "matmul/structure.h"

COURSE_SOLUTION_LAUNCHER(matmul, step08_warp_tiling)
COURSE_SOLUTION_LAUNCHER(matmul, step08_warp_tiling_attributes)

TEST_CASE("step 08 computes C = A * B at every grading shape") {
    matmul::testing::check_every_shape(matmul::step08_warp_tiling, 800);
}

TEST_CASE("step 08 is right on matrices that do not start on a 16-byte boundary") {
    matmul::testing::check_misaligned(matmul::step08_warp_tiling, 810);
}

TEST_CASE("step 08 keeps its partial sums and its prefetched tiles in registers") {
    matmul::testing::check_registers_only(matmul::step08_warp_tiling_attributes());
}

// The untouched starter (step 07's solution) passes the checks above and
// comes within a few percent of the speed rule, so the step's two ideas are
// also checked without a clock (tests/matmul/structure.h): on a GPU where
// they gain less, the starter must still fail.
TEST_CASE("step 08 keeps two stages of tiles in shared memory: at least twice the shared memory of step 07's one") {
    const matmul::testing::StructureCheck check =
        matmul::testing::check_two_stages(matmul::step08_warp_tiling, matmul::step07_bank_conflicts);
    MESSAGE(check.what);
    CHECK_MESSAGE(check.ok, check.what);
}

TEST_CASE("step 08 gives each warp a compact tile of C: a block's first warp, run alone, writes within 4096 elements") {
    const matmul::testing::StructureCheck check = matmul::testing::check_warp_tile(matmul::step08_warp_tiling);
    MESSAGE(check.what);
    CHECK_MESSAGE(check.ok, check.what);
}

TEST_CASE("step 08 runs at least 0.85x as fast as the reference solution of step 08") {
    if (!course::testing::timing_is_meaningful()) return;
    // The course's speed rule (tests/speed_rule.h); what the untouched starter
    // measures in it is in lessons/matmul/README.md's starters table.
    matmul::testing::check_speed(
        {{7, "", matmul::step07_bank_conflicts, matmul::step07_bank_conflicts_attributes},
         {8, "", matmul::solution::step08_warp_tiling, matmul::solution::step08_warp_tiling_attributes},
         {8, "", matmul::step08_warp_tiling, matmul::step08_warp_tiling_attributes}},
        "4096",
        "the warp tile (each warp a contiguous block of C), the double buffer (the next tiles loaded into "
        "registers while this one is computed) and no local memory; the README's Nsight Compute command shows the "
        "stall reasons");
}
