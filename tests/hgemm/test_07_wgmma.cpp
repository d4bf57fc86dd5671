// Grading test of hgemm step 07 (Hopper: the math done by wgmma.mma_async,
// A and B read from the swizzled shared memory through matrix descriptors).
// Built twice: against lessons/hgemm/07_wgmma/kernel.cu (suite "grade") and
// against the reference solution (suite "solutions"); COURSE_GRADED_LIBRARY
// (tests/meson.build) is the library built from the kernel.cu it grades. On
// a GPU older than compute capability 9.0 it exits 77 (skipped), saying so:
// there is no wgmma to grade.
#include "hgemm/helpers.h"

#ifndef COURSE_GRADED_LIBRARY
#define COURSE_GRADED_LIBRARY ""
#endif

COURSE_NEEDS_COMPUTE_CAPABILITY(hgemm::kHopper, "hgemm step 07 (wgmma.mma_async)");

COURSE_SOLUTION_LAUNCHER(hgemm, step07_wgmma)
COURSE_SOLUTION_LAUNCHER(hgemm, step07_wgmma_attributes)

TEST_CASE("step 07 computes C = A * B at every grading shape") {
    hgemm::testing::check_every_shape(hgemm::step07_wgmma, 700);
}

TEST_CASE("step 07 is right where the tensor maps zero-fill the edges") {
    hgemm::testing::check_shapes(hgemm::testing::kAlignedRaggedShapes, hgemm::step07_wgmma, 705);
}

TEST_CASE("step 07 is right on matrices that do not start on a 32-byte boundary") {
    hgemm::testing::check_misaligned(hgemm::step07_wgmma, 710);
}

TEST_CASE("step 07 still reads A and B through tensor maps (the TMA)") {
    const auto check = hgemm::testing::check_tensor_maps(hgemm::step07_wgmma, COURSE_GRADED_LIBRARY);
    MESSAGE(check.what);
    CHECK_MESSAGE(check.ok, check.what);
}

TEST_CASE("step 07 does its math with wgmma (HGMMA in the kernel's machine code)") {
    const auto check = hgemm::testing::check_wgmma_instructions(hgemm::step07_wgmma, COURSE_GRADED_LIBRARY);
    MESSAGE(check.what);
    CHECK_MESSAGE(check.ok, check.what);
}

TEST_CASE("step 07 keeps its accumulators in registers") {
    hgemm::testing::check_registers_only(hgemm::step07_wgmma_attributes());
}

TEST_CASE("step 07 runs at least 0.85x as fast as the reference solution of step 07") {
    if (!course::testing::timing_is_meaningful()) return;
    // The course's speed rule (tests/speed_rule.h), at 4096^3: the TMA path.
    hgemm::testing::check_speed(
        {{6, "", hgemm::step06_tma, hgemm::step06_tma_attributes, hgemm::kHopper},
         {7, "", hgemm::solution::step07_wgmma, hgemm::solution::step07_wgmma_attributes, hgemm::kHopper},
         {7, "", hgemm::step07_wgmma, hgemm::step07_wgmma_attributes, hgemm::kHopper}},
        "4096",
        "two warpgroups, each issuing one m64n256k16 wgmma per 16 terms from the stage's shared memory (no ldmatrix), "
        "the tile's four wgmmas committed as one group, wait_group 1 (not 0) before the barrier that lets the "
        "previous tile's stage be refilled, and wgmma.fence before the first; the README's Nsight Compute command "
        "shows the tensor pipe's use and the stalls");
}
