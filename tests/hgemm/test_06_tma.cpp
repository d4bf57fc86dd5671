// Grading test of hgemm step 06 (Hopper: the tiles copied by the TMA into the
// 128-byte swizzle, completion by mbarrier). Built twice: against
// lessons/hgemm/06_tma/kernel.cu (suite "grade") and against the reference
// solution (suite "solutions"). On a GPU older than compute capability 9.0 it
// exits 77 (skipped), saying so: there is no TMA to grade.
#include "hgemm/helpers.h"

#ifndef COURSE_GRADED_LIBRARY
#define COURSE_GRADED_LIBRARY ""
#endif

COURSE_NEEDS_COMPUTE_CAPABILITY(hgemm::kHopper, "hgemm step 06 (TMA, cp.async.bulk.tensor)");

COURSE_SOLUTION_LAUNCHER(hgemm, step05_swizzled)
COURSE_SOLUTION_LAUNCHER(hgemm, step05_swizzled_attributes)
COURSE_SOLUTION_LAUNCHER(hgemm, step06_tma)
COURSE_SOLUTION_LAUNCHER(hgemm, step06_tma_attributes)

TEST_CASE("step 06 computes C = A * B at every grading shape") {
    hgemm::testing::check_every_shape(hgemm::step06_tma, 600);
}

TEST_CASE("step 06 is right where the tensor maps zero-fill the edges") {
    hgemm::testing::check_shapes(hgemm::testing::kAlignedRaggedShapes, hgemm::step06_tma, 605);
}

TEST_CASE("step 06 is right on matrices that do not start on a 32-byte boundary") {
    hgemm::testing::check_misaligned(hgemm::step06_tma, 610);
}

TEST_CASE("step 06 reads A and B through tensor maps (the TMA)") {
    const auto check = hgemm::testing::check_tensor_maps(hgemm::step06_tma, COURSE_GRADED_LIBRARY);
    MESSAGE(check.what);
    CHECK_MESSAGE(check.ok, check.what);
}

TEST_CASE("step 06 keeps its fragments and accumulators in registers") {
    hgemm::testing::check_registers_only(hgemm::step06_tma_attributes());
}

TEST_CASE("step 06 runs at least 0.85x as fast as the reference solution of step 06") {
    if (!course::testing::timing_is_meaningful()) return;
    // The course's speed rule (tests/speed_rule.h), at 4096^3: the TMA path.
    hgemm::testing::check_speed(
        {{5, "", hgemm::step05_swizzled, hgemm::step05_swizzled_attributes},
         {6, "", hgemm::solution::step06_tma, hgemm::solution::step06_tma_attributes, hgemm::kHopper},
         {6, "", hgemm::step06_tma, hgemm::step06_tma_attributes, hgemm::kHopper}},
        "4096",
        "one thread issuing each stage's boxes (A's 128 x 64, B's four 64 x 64) with the expected bytes on the "
        "stage's mbarrier, every thread waiting on the barrier's parity before the barrier of the k-step, and the "
        "ldmatrix addresses in the 128-byte swizzle (chunk ^ row % 8 within each 64-column box); the README's "
        "Nsight Compute command shows the stalls and the tensor pipe's use");
}
