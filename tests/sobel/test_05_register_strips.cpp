// Grading test of Sobel step 05 (16-byte strips, the window in registers, half2). Built
// twice: against lessons/sobel/05_register_strips/kernel.cu (suite "grade") and
// against the reference solution (suite "solutions").
#include "doctest_include.h"

#include "gpu_test.h"
#include "sobel/helpers.h"

COURSE_SOLUTION_LAUNCHER(sobel, step05_register_strips)

namespace {

using namespace sobel;

const Step kStep{5, "step 05", step05_register_strips};
const Step kReference{5, "", solution::step05_register_strips};
const Step kPrevious{4, "", step04_shared_window, step04_shared_window_desc};
}  // namespace

TEST_CASE("step 05 is exact at every grading size and pitch, the 1-pixel frame included") {
    testing::check_every_shape(kStep);
}

TEST_CASE("step 05 uses neither shared memory nor local memory, and each thread computes a strip of rows") {
    const course::KernelLaunch mine = testing::launch_of(kStep);
    const course::KernelLaunch reference = testing::launch_of(kReference);
    CHECK_MESSAGE(mine.shared_bytes() == 0, mine.shared_bytes(),
                  " bytes of shared memory: the window lives in registers");
    CHECK_MESSAGE(mine.attributes.localSizeBytes == 0, mine.attributes.localSizeBytes,
                  " bytes of local memory per thread: index the window's arrays with constants only (unrolled "
                  "loops), or they spill to local memory");
    CHECK_MESSAGE(mine.blocks() * mine.threads_per_block() <= reference.blocks() * reference.threads_per_block(),
                  (mine.blocks() * mine.threads_per_block()),
                  " threads for 2048x2048 pixels; the reference "
                  "solution runs ",
                  reference.blocks() * reference.threads_per_block(), " (16 columns and 4 rows each)");
}

TEST_CASE("step 05 runs at least 0.85x as fast as the reference solution of step 05") {
    if (!course::testing::timing_is_meaningful()) return;
    testing::check_speed({kPrevious, kReference, kStep},
                         "one 16-byte load per row of a 16-column strip, each row loaded once and kept in "
                         "registers for the three output rows that need it, the next row loaded a row ahead, the "
                         "arithmetic on __half2 pairs (two pixels per instruction); the README's Nsight Compute "
                         "command counts the instructions and the DRAM bytes");
}
