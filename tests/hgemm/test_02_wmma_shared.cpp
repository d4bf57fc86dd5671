// Grading test of hgemm step 02 (WMMA on shared-memory tiles, several warps
// per block, each with a warp tile). Built twice: against
// lessons/hgemm/02_wmma_shared/kernel.cu (suite "grade") and against the
// reference solution (suite "solutions").
#include "hgemm/helpers.h"

#include <cmath>

COURSE_SOLUTION_LAUNCHER(hgemm, step02_wmma_shared)
COURSE_SOLUTION_LAUNCHER(hgemm, step02_wmma_shared_attributes)

TEST_CASE("step 02 computes C = A * B at every grading shape") {
    hgemm::testing::check_every_shape(hgemm::step02_wmma_shared, 200);
}

TEST_CASE("step 02 is right on matrices that do not start on a 32-byte boundary") {
    hgemm::testing::check_misaligned(hgemm::step02_wmma_shared, 210);
}

TEST_CASE("step 02 gives each warp a warp tile of at least 4 fragments, several warps per block") {
    // 1024 x 1024 outputs are 4096 tiles of 16 x 16; step 01 starts a warp for
    // each of them.
    const hgemm::Shape shape{1024, 1024, 256};
    const course::LaunchRecord record = hgemm::testing::launches_at(hgemm::step02_wmma_shared, shape);
    REQUIRE_MESSAGE(record.kernels.size() == 1, "the launcher enqueues ", record.kernels.size(),
                    " kernels; step 02 is one kernel");
    const course::KernelLaunch& kernel = record.kernels[0];
    const std::size_t tiles = (1024 / 16) * (1024 / 16), warps = hgemm::testing::warps_launched(kernel);
    MESSAGE(kernel.blocks(), " blocks of ", kernel.threads_per_block(), " threads: ", warps, " warps for ", tiles,
            " tiles of 16 x 16");
    CHECK_MESSAGE(kernel.threads_per_block() >= 4 * 32, "blocks of ", kernel.threads_per_block(),
                  " threads: step 02 shares each block's tiles among at least 4 warps");
    CHECK_MESSAGE(warps * 4 <= tiles, warps, " warps for ", tiles,
                  " tiles of C: each warp should compute a warp tile of at least 4 fragments (the solution's: 4 x 2)");
}

TEST_CASE("step 02 stages the block's tiles of A and B in shared memory") {
    // A block that computes R x S outputs needs, per 16 terms, an R x 16 tile
    // of A and a 16 x S tile of B: (R + S) * 16 halves, at least
    // 2 * sqrt(R * S) * 16 of them whatever the block's shape.
    const hgemm::Shape shape{1024, 1024, 256};
    const course::LaunchRecord record = hgemm::testing::launches_at(hgemm::step02_wmma_shared, shape);
    REQUIRE(record.kernels.size() == 1);
    const course::KernelLaunch& kernel = record.kernels[0];
    const double outputs_per_block = 1024.0 * 1024.0 / static_cast<double>(kernel.blocks());
    const double minimum = 2.0 * std::sqrt(outputs_per_block) * 16 * sizeof(__half);
    MESSAGE(hgemm::testing::describe(kernel.attributes), "; ", kernel.dynamic_shared_bytes, " bytes dynamic");
    CHECK_MESSAGE(static_cast<double>(kernel.shared_bytes()) >= minimum, "the kernel has ", kernel.shared_bytes(),
                  " bytes of shared memory per block; one 16-term step of tiles for a block of ", outputs_per_block,
                  " outputs needs at least ", minimum);
}

TEST_CASE("step 02 keeps its fragments and accumulators in registers") {
    hgemm::testing::check_registers_only(hgemm::step02_wmma_shared_attributes());
}

TEST_CASE("step 02 runs at least 0.85x as fast as the reference solution of step 02") {
    if (!course::testing::timing_is_meaningful()) return;
    // The course's speed rule (tests/speed_rule.h); the figures measured with it
    // will be in lessons/hgemm/02_wmma_shared/README.md.
    hgemm::testing::check_speed(
        {{1, "", hgemm::step01_wmma, hgemm::step01_wmma_attributes},
         {2, "", hgemm::solution::step02_wmma_shared, hgemm::solution::step02_wmma_shared_attributes},
         {2, "", hgemm::step02_wmma_shared, hgemm::step02_wmma_shared_attributes}},
        "4096",
        "the block's tiles of A and B copied into shared memory once per step of K (16-byte copies where they fit), "
        "padded rows, and each warp's 4 x 2 accumulators fed by fragments loaded from shared memory; the README's "
        "Nsight Compute command shows the tensor pipe's use, the stalls and the bank conflicts");
}
