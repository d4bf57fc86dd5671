// Grading test of Sobel step 04 (texture into shared memory, sliding rows). Built
// twice: against lessons/sobel/04_shared_window/kernel.cu (suite "grade") and against
// the reference solution (suite "solutions").
#include "doctest_include.h"

#include "gpu_test.h"
#include "sobel/helpers.h"

COURSE_SOLUTION_LAUNCHER(sobel, step04_shared_window)
COURSE_SOLUTION_LAUNCHER(sobel, step04_shared_window_desc)

namespace {

using namespace sobel;

const Step kStep{4, "step 04", step04_shared_window, step04_shared_window_desc};
const Step kReference{4, "", solution::step04_shared_window, solution::step04_shared_window_desc};
const Step kPrevious{3, "", step03_texture_rows, step03_texture_rows_desc};
}  // namespace

TEST_CASE("step 04 is exact at every grading size and pitch, the 1-pixel frame included") {
    testing::check_every_shape(kStep);
}

TEST_CASE("step 04 reads its input through the texture") { testing::check_reads_through_texture(kStep); }

TEST_CASE("step 04 stages a tile in shared memory, each thread computing a run of rows") {
    const course::KernelLaunch mine = testing::launch_of(kStep);
    const course::KernelLaunch reference = testing::launch_of(kReference);
    CHECK_MESSAGE(mine.shared_bytes() > 0, "no shared memory: the tile belongs in shared memory");
    CHECK_MESSAGE(mine.blocks() * mine.threads_per_block() <= std::size_t{2048} * 2048 / 4,
                  (mine.blocks() * mine.threads_per_block()),
                  " threads for 2048x2048 pixels: each thread computes a run of at least 4 rows");
    // Tiles of at least 1024 pixels (32x32, 64x16, ...; the README lets
    // kTileWidth be any multiple of 32): at most twice the reference's blocks
    // of 64x32.
    CHECK_MESSAGE(mine.blocks() <= 2 * reference.blocks(), mine.blocks(), " blocks; the reference solution launches ",
                  reference.blocks(), " (64x32-pixel tiles), and tiles of 1024 pixels (32x32, 64x16) twice as many");
}

TEST_CASE("step 04 runs at least 0.85x as fast as the reference solution of step 04") {
    if (!course::testing::timing_is_meaningful()) return;
    testing::check_speed({kPrevious, kReference, kStep},
                         "the tile and its apron read once from the texture into shared memory, then three "
                         "shared reads per pixel as the window slides down; the README's Nsight Compute command "
                         "counts the texture and shared-memory requests");
}
