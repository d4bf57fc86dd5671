// Grading test of Sobel step 01 (global memory, twelve reads per pixel). Built twice:
// against lessons/sobel/01_twelve_reads/kernel.cu (suite "grade") and against the
// reference solution (suite "solutions").
#include "doctest_include.h"

#include "gpu_test.h"
#include "sobel/helpers.h"

COURSE_SOLUTION_LAUNCHER(sobel, step01_twelve_reads)

namespace {

using namespace sobel;

const Step kStep{1, "step 01", step01_twelve_reads};
const Step kReference{1, "", solution::step01_twelve_reads};
}  // namespace

TEST_CASE("step 01 is exact at every grading size and pitch, the 1-pixel frame included") {
    testing::check_every_shape(kStep);
}

TEST_CASE("step 01 runs one thread per pixel, as the reference solution does") {
    const course::KernelLaunch mine = testing::launch_of(kStep);
    CHECK_MESSAGE(mine.blocks() * mine.threads_per_block() >= std::size_t{2048} * 2048,
                  (mine.blocks() * mine.threads_per_block()), " threads for 2048x2048 pixels: one thread per pixel");
}

TEST_CASE("step 01 runs at least 0.85x as fast as the reference solution of step 01") {
    if (!course::testing::timing_is_meaningful()) return;
    // The course's speed rule (tests/speed_rule.h).
    testing::check_speed({kReference, kStep}, "one thread per pixel, a warp along a row (32x8 blocks), so that a "
                                              "warp's reads and its store are consecutive bytes");
}
