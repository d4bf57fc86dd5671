// Grading test of Sobel step 03 (texture, one row per block). Built twice: against
// lessons/sobel/03_texture_rows/kernel.cu (suite "grade") and against the reference
// solution (suite "solutions").
#include "doctest_include.h"

#include "gpu_test.h"
#include "sobel/helpers.h"

COURSE_SOLUTION_LAUNCHER(sobel, step03_texture_rows)
COURSE_SOLUTION_LAUNCHER(sobel, step03_texture_rows_desc)

namespace {

using namespace sobel;

const Step kStep{3, "step 03", step03_texture_rows, step03_texture_rows_desc};
const Step kReference{3, "", solution::step03_texture_rows, solution::step03_texture_rows_desc};
const Step kPrevious{2, "", step02_eight_reads};
}  // namespace

TEST_CASE("step 03 is exact at every grading size and pitch, the 1-pixel frame included") {
    testing::check_every_shape(kStep);
}

TEST_CASE("step 03 reads its input through the texture") { testing::check_reads_through_texture(kStep); }

TEST_CASE("step 03 launches one block per image row, each thread computing several pixels of it") {
    const course::KernelLaunch mine = testing::launch_of(kStep);
    CHECK_MESSAGE(mine.blocks() == 2048, mine.blocks(), " blocks for a 2048x2048 image: one block per row");
    CHECK_MESSAGE(mine.threads_per_block() < 2048, mine.threads_per_block(),
                  " threads per block for rows of 2048 pixels: each thread strides along its row");
}

TEST_CASE("step 03 runs at least 0.85x as fast as the reference solution of step 03") {
    if (!course::testing::timing_is_meaningful()) return;
    testing::check_speed({kPrevious, kReference, kStep},
                         "one block per row, its threads striding along it (x += blockDim.x), the eight "
                         "neighbours read with tex2D; the README's Nsight Compute command shows the texture "
                         "cache's hit rate");
}
