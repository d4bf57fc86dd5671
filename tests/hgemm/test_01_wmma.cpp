// Grading test of hgemm step 01 (WMMA, one warp per 16 x 16 tile of C, from
// global memory). Built twice: against lessons/hgemm/01_wmma/kernel.cu (suite
// "grade") and against the reference solution (suite "solutions").
#include "hgemm/helpers.h"

COURSE_SOLUTION_LAUNCHER(hgemm, step01_wmma)
COURSE_SOLUTION_LAUNCHER(hgemm, step01_wmma_attributes)

TEST_CASE("step 01 computes C = A * B at every grading shape") {
    hgemm::testing::check_every_shape(hgemm::step01_wmma, 100);
}

TEST_CASE("step 01 is right on matrices that do not start on a 32-byte boundary") {
    hgemm::testing::check_misaligned(hgemm::step01_wmma, 110);
}

TEST_CASE("step 01 launches one warp per 16 x 16 tile of C, in one kernel") {
    const auto check = hgemm::testing::check_one_warp_per_tile(hgemm::step01_wmma);
    MESSAGE(check.what);
    CHECK_MESSAGE(check.ok, check.what);
}

TEST_CASE("step 01 keeps its fragments in registers") {
    hgemm::testing::check_registers_only(hgemm::step01_wmma_attributes());
}

TEST_CASE("step 01 runs at least 0.85x as fast as the reference solution of step 01") {
    if (!course::testing::timing_is_meaningful()) return;
    // The course's speed rule (tests/speed_rule.h).
    hgemm::testing::check_speed({{1, "", hgemm::solution::step01_wmma, hgemm::solution::step01_wmma_attributes},
                                 {1, "", hgemm::step01_wmma, hgemm::step01_wmma_attributes}},
                                "2048",
                                "one warp per 16 x 16 tile of C, its fragments of A and B loaded with "
                                "wmma::load_matrix_sync straight from global memory wherever the tile rules hold; "
                                "the README's Nsight Compute command shows the tensor pipe's use");
}
