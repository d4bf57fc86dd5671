// Grading test of Sobel step 06 (two pixels per instruction, in half2). Built
// twice: against lessons/sobel/06_half2_pairs/kernel.cu (suite "grade") and
// against the reference solution (suite "solutions").
#include "doctest_include.h"

#include "gpu_test.h"
#include "sobel/helpers.h"

COURSE_SOLUTION_LAUNCHER(sobel, step06_half2_pairs)

namespace {

using namespace sobel;

const Step kStep{6, "step 06", step06_half2_pairs};
const Step kReference{6, "", solution::step06_half2_pairs};
const Step kPrevious{5, "", step05_register_strips};
}  // namespace

TEST_CASE("step 06 is exact at every grading size and pitch, the 1-pixel frame included") {
    testing::check_every_shape(kStep);
}

TEST_CASE("step 06 uses neither shared memory nor local memory, and each thread computes a strip of rows") {
    const course::KernelLaunch mine = testing::launch_of(kStep);
    const course::KernelLaunch reference = testing::launch_of(kReference);
    CHECK_MESSAGE(mine.shared_bytes() == 0, mine.shared_bytes(),
                  " bytes of shared memory: the window lives in registers");
    CHECK_MESSAGE(mine.attributes.localSizeBytes == 0, mine.attributes.localSizeBytes,
                  " bytes of local memory per thread: index the window's arrays with constants only (unrolled "
                  "loops), or they spill to local memory");
    CHECK_MESSAGE(mine.blocks() * mine.threads_per_block() <= reference.blocks() * reference.threads_per_block(),
                  mine.blocks() * mine.threads_per_block(),
                  " threads for 2048x2048 pixels; the reference "
                  "solution runs ",
                  reference.blocks() * reference.threads_per_block(), " (16 columns and 8 rows each)");
}

TEST_CASE("step 06 runs at least 0.85x as fast as the reference solution of step 06") {
    if (!course::testing::timing_is_meaningful()) return;
    testing::check_speed({kPrevious, kReference, kStep},
                         "step 05's strips and loads unchanged, the arithmetic on two columns per instruction "
                         "(__half2: __hfma2, __hadd2, __habs2, __hmin2); the README's Nsight Compute command counts "
                         "the instructions per pixel");
}
