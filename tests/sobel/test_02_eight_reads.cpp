// Grading test of Sobel step 02 (eight reads into registers, one function). Built
// twice: against lessons/sobel/02_eight_reads/kernel.cu (suite "grade") and against
// the reference solution (suite "solutions").
#include "doctest_include.h"

#include "gpu_test.h"
#include "sobel/helpers.h"

COURSE_SOLUTION_LAUNCHER(sobel, step02_eight_reads)

namespace {

using namespace sobel;

const Step kStep{2, "step 02", step02_eight_reads};
const Step kReference{2, "", solution::step02_eight_reads};
const Step kPrevious{1, "", step01_twelve_reads};
}  // namespace

TEST_CASE("step 02 is exact at every grading size and pitch, the 1-pixel frame included") {
    testing::check_every_shape(kStep);
}

TEST_CASE("step 02 keeps its eight neighbours in registers: no local memory, no out-of-line calls") {
    // Step 01's __noinline__ gradients pass their arguments and return through
    // the call ABI; step 02 computes everything inline, in registers.
    const course::KernelLaunch mine = testing::launch_of(kStep);
    CHECK_MESSAGE(mine.attributes.localSizeBytes == 0, mine.attributes.localSizeBytes,
                  " bytes of local memory per thread: the eight neighbours belong in registers");
}

TEST_CASE("step 02 runs at least 0.85x as fast as the reference solution of step 02") {
    if (!course::testing::timing_is_meaningful()) return;
    testing::check_speed({kPrevious, kReference, kStep},
                         "each of the eight neighbours read once into a register, then one call of "
                         "edge_magnitude; the README's Nsight Compute command counts the global load "
                         "instructions (8 per pixel, down from 12)");
}
