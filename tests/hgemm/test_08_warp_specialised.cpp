// Grading test of hgemm step 08 (Hopper: warp specialisation, a producer
// warpgroup issuing the TMA copies and two consumer warpgroups doing the
// wgmmas, with register reallocation by setmaxnreg). Built twice: against
// lessons/hgemm/08_warp_specialised/kernel.cu (suite "grade") and against the
// reference solution (suite "solutions"); COURSE_GRADED_LIBRARY
// (tests/meson.build) is the library built from the kernel.cu it grades. On
// a GPU older than compute capability 9.0 it exits 77 (skipped), saying so.
#include "hgemm/helpers.h"

#ifndef COURSE_GRADED_LIBRARY
#define COURSE_GRADED_LIBRARY ""
#endif

COURSE_NEEDS_COMPUTE_CAPABILITY(hgemm::kHopper, "hgemm step 08 (warp specialisation, setmaxnreg)");

COURSE_SOLUTION_LAUNCHER(hgemm, step08_warp_specialised)
COURSE_SOLUTION_LAUNCHER(hgemm, step08_warp_specialised_attributes)

TEST_CASE("step 08 computes C = A * B at every grading shape") {
    hgemm::testing::check_every_shape(hgemm::step08_warp_specialised, 800);
}

TEST_CASE("step 08 is right where the tensor maps zero-fill the edges") {
    hgemm::testing::check_shapes(hgemm::testing::kAlignedRaggedShapes, hgemm::step08_warp_specialised, 805);
}

// The shapes above have at most 96 block tiles of 128 x 256, fewer than the
// SMs of most Hopper GPUs (132 on an H100 SXM or an H200): a persistent
// kernel's blocks there compute one tile each, and what carries from one
// tile to the next (the stages' phases, stale boxes of B, the next tile's
// copies during the stores) never runs. These have 289 and 256 tiles, two
// or three for most blocks: 2049 x 4104 x 136 is ragged everywhere (a last
// tile row of 1 row, alone in its group of tile rows; a last tile column of
// 8 columns; 3 k-steps, so that the 4 stages wrap inside a tile);
// 2048 x 4096 x 512 has whole tiles only (the fast paths); 2049 x 2056 x 72
// (153 tiles, ragged too) is under 10^9 FLOP, so the memcheck run, which
// leaves out the larger shapes, sees blocks of two tiles as well.
TEST_CASE("step 08 is right where a block computes several tiles (more tiles than SMs)") {
    hgemm::testing::check_shapes({{2049, 4104, 136}, {2048, 4096, 512}, {2049, 2056, 72}},
                                 hgemm::step08_warp_specialised, 815);
}

TEST_CASE("step 08 is right on matrices that do not start on a 32-byte boundary") {
    hgemm::testing::check_misaligned(hgemm::step08_warp_specialised, 810);
}

TEST_CASE("step 08 still reads A and B through tensor maps (the TMA)") {
    const auto check = hgemm::testing::check_tensor_maps(hgemm::step08_warp_specialised, COURSE_GRADED_LIBRARY);
    MESSAGE(check.what);
    CHECK_MESSAGE(check.ok, check.what);
}

TEST_CASE("step 08 specialises its warpgroups (3 or more of 128 threads, HGMMA and USETMAXREG in its machine code)") {
    const auto check = hgemm::testing::check_warp_specialised(hgemm::step08_warp_specialised, COURSE_GRADED_LIBRARY);
    MESSAGE(check.what);
    CHECK_MESSAGE(check.ok, check.what);
}

TEST_CASE("step 08 keeps its accumulators in registers") {
    hgemm::testing::check_registers_only(hgemm::step08_warp_specialised_attributes());
}

TEST_CASE("step 08 runs at least 0.85x as fast as the reference solution of step 08") {
    if (!course::testing::timing_is_meaningful()) return;
    // The course's speed rule (tests/speed_rule.h), at 4096^3: the TMA path.
    hgemm::testing::check_speed(
        {{7, "", hgemm::step07_wgmma, hgemm::step07_wgmma_attributes, hgemm::kHopper},
         {8, "", hgemm::solution::step08_warp_specialised, hgemm::solution::step08_warp_specialised_attributes,
          hgemm::kHopper},
         {8, "", hgemm::step08_warp_specialised, hgemm::step08_warp_specialised_attributes, hgemm::kHopper}},
        "4096",
        "a producer warpgroup whose one elected thread issues every stage's TMA copies after waiting on the stage's "
        "empty mbarrier (parity starting at 1), setmaxnreg.dec to 40 there and setmaxnreg.inc to 232 in the two "
        "consumer warpgroups, each consumer warp arriving on empty[s] after the wait_group that completes the wgmmas "
        "reading stage s, no __syncthreads in the main loop, and a persistent grid of one block per SM walking the "
        "tiles in step 05's order (tile_position); the README's Nsight Compute command shows where the warps "
        "stall");
}
