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
    // 256 x 128 outputs are 16 x 8 tiles of 16 x 16, a multiple of any block
    // of 1, 2, 4 or 8 warps in either direction: one warp each, none spare.
    const hgemm::Shape shape{256, 128, 64};
    const course::LaunchRecord record = hgemm::testing::launches_at(hgemm::step01_wmma, shape);
    REQUIRE_MESSAGE(record.kernels.size() == 1, "the launcher enqueues ", record.kernels.size(),
                    " kernels; step 01 is one kernel");
    const course::KernelLaunch& kernel = record.kernels[0];
    const std::size_t tiles = (256 / 16) * (128 / 16);
    MESSAGE(kernel.blocks(), " blocks of ", kernel.threads_per_block(), " threads");
    CHECK_MESSAGE(kernel.threads_per_block() % 32 == 0, "blocks of ", kernel.threads_per_block(),
                  " threads: WMMA works on whole warps");
    CHECK_MESSAGE(hgemm::testing::warps_launched(kernel) == tiles, "the kernel starts ",
                  hgemm::testing::warps_launched(kernel), " warps for the ", tiles, " tiles of 16 x 16 at ",
                  shape.describe());
}

TEST_CASE("step 01 keeps its fragments in registers") {
    hgemm::testing::check_registers_only(hgemm::step01_wmma_attributes());
}

TEST_CASE("step 01 runs at least 0.85x as fast as the reference solution of step 01") {
    if (!course::testing::timing_is_meaningful()) return;
    // The course's speed rule (tests/speed_rule.h); the figures measured with it
    // will be in lessons/hgemm/01_wmma/README.md.
    hgemm::testing::check_speed({{1, "", hgemm::solution::step01_wmma, hgemm::solution::step01_wmma_attributes},
                                 {1, "", hgemm::step01_wmma, hgemm::step01_wmma_attributes}},
                                "2048",
                                "one warp per 16 x 16 tile of C, its fragments of A and B loaded with "
                                "wmma::load_matrix_sync straight from global memory wherever the tile rules hold; "
                                "the README's Nsight Compute command shows the tensor pipe's use");
}
