// Grading test of hgemm step 09 (Hopper: step 08's warp-specialised kernel at
// every shape, A and B copied into rows padded to 16 bytes where the tensor
// maps cannot read them as they are). Built twice: against
// lessons/hgemm/09_any_shape/kernel.cu (suite "grade") and against the
// reference solution (suite "solutions"). On a GPU older than compute
// capability 9.0 it exits 77 (skipped), saying so.
#include "hgemm/helpers.h"

#ifndef COURSE_GRADED_LIBRARY
#define COURSE_GRADED_LIBRARY ""
#endif

COURSE_NEEDS_COMPUTE_CAPABILITY(hgemm::kHopper, "hgemm step 09 (any shape on the TMA)");

COURSE_SOLUTION_LAUNCHER(hgemm, step09_any_shape)
COURSE_SOLUTION_LAUNCHER(hgemm, step09_any_shape_attributes)

TEST_CASE("step 09 computes C = A * B at every grading shape") {
    hgemm::testing::check_every_shape(hgemm::step09_any_shape, 900);
}

TEST_CASE("step 09 is right where the tensor maps zero-fill the edges") {
    hgemm::testing::check_shapes(hgemm::testing::kAlignedRaggedShapes, hgemm::step09_any_shape, 905);
}

// Step 08's shapes of more tiles than SMs (blocks of two or three tiles), and
// the same with K and N odd, so that both A and B are copied first: rows of
// 137 and 4105 halves; and two under 10^9 FLOP, which the memcheck run keeps:
// 2049 x 2056 x 72 (153 tiles) and the same copied, 2049 x 2057 x 73.
TEST_CASE("step 09 is right where a block computes several tiles, with and without copies") {
    hgemm::testing::check_shapes(
        {{2049, 4104, 136}, {2049, 4105, 137}, {2048, 4096, 512}, {2049, 2056, 72}, {2049, 2057, 73}},
        hgemm::step09_any_shape, 915);
}

// Offsets of 1 element (A and B 2 bytes past a 16-byte boundary: copied) and
// of 8 (16 bytes: read where they lie, 16- but not 32-byte aligned); C 4 or
// 32 bytes off, so that the 8-byte pair stores are left out at offset 1.
TEST_CASE("step 09 is right on matrices that do not start on a 32-byte boundary") {
    hgemm::testing::check_misaligned(hgemm::step09_any_shape, 910);
}

TEST_CASE("step 09 runs step 08's kernel where a row of A or B is not a multiple of 16 bytes") {
    const auto check = hgemm::testing::check_any_shape_on_tma(hgemm::step09_any_shape);
    MESSAGE(check.what);
    CHECK_MESSAGE(check.ok, check.what);
}

TEST_CASE("step 09 still reads A and B through tensor maps (the TMA)") {
    const auto check = hgemm::testing::check_tensor_maps(hgemm::step09_any_shape, COURSE_GRADED_LIBRARY);
    MESSAGE(check.what);
    CHECK_MESSAGE(check.ok, check.what);
}

TEST_CASE("step 09 keeps its accumulators in registers") {
    hgemm::testing::check_registers_only(hgemm::step09_any_shape_attributes());
}

TEST_CASE("step 09 runs at least 0.85x as fast as the reference solution of step 09 at 4095^3") {
    if (!course::testing::timing_is_meaningful()) return;
    // The course's speed rule (tests/speed_rule.h) at 4095^3, the ragged
    // shape: K and N odd, so both A and B are copied first.
    hgemm::testing::check_speed(
        {{8, "", hgemm::step08_warp_specialised, hgemm::step08_warp_specialised_attributes, hgemm::kHopper},
         {9, "", hgemm::solution::step09_any_shape, hgemm::solution::step09_any_shape_attributes, hgemm::kHopper},
         {9, "", hgemm::step09_any_shape, hgemm::step09_any_shape_attributes, hgemm::kHopper}},
        "4095",
        "where K or N is not a multiple of 8 halves, or A or B is not 16-byte aligned, a coalesced copy kernel "
        "into scratch rows padded to a multiple of 8 halves (cudaMallocAsync and cudaFreeAsync on the launcher's "
        "stream), then step 08's kernel on tensor maps whose dimensions are the true K and N and whose strides "
        "are the padded pitches; a matrix that keeps the rule is not copied, and step 05's kernel is never "
        "launched");
}
