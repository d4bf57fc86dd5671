// Grading test of convolution step 10 (unrolled into registers, four products per instruction). Built twice: against
// lessons/convolution/10_unrolled/kernel.cu (suite "grade") and against the
// reference solution (suite "solutions").
#include "doctest_include.h"

#include "convolution/helpers.h"
#include "gpu_test.h"

#include "course/launches.h"

COURSE_SOLUTION_LAUNCHER(convolution, step10_unrolled)

namespace {

using namespace convolution;

const Step kStep{10, "step 10", step10_unrolled};
const Step kReference{10, "", solution::step10_unrolled};
const Step kPrevious{9, "step 09 (solution)", step09_bank_conflicts};
}  // namespace

TEST_CASE("step 10 is exact at every grading size, pitch and block shape") { testing::check_every_shape(kStep); }

TEST_CASE("step 10 is exact with a scale that is not a power of two") {
    // The shift is only for scales 2^-k; any other scale must take the
    // track's float rule.
    Filter filter = kFilter;
    filter.scale = 0.0137f;
    for (const testing::Shape& shape : {testing::Shape{127, 65}, testing::Shape{1023, 17, 1025}}) {
        CAPTURE(shape.describe());
        Problem problem(test_image(shape.width, shape.height, 5), shape.pitch, filter);
        Params params = problem.params();
        params.filter = filter;
        const auto result = course::check_once(course::testing::harness(), problem.run(kStep.launch, params));
        CHECK_MESSAGE(result.ok, result.summary());
    }
}

// What this checks is the shape of the work, not where the rows live: no count
// of registers or spills separates a kernel that keeps its rows in registers
// from one that does not (the reference solution spills some with its 64
// registers), so the name says only what is checked.
TEST_CASE("step 10 uses no shared memory and launches 16x2 pixels per thread") {
    Problem problem(test_image(2048, 2048, 3));
    const course::LaunchRecord record = course::record_launches(problem.run(kStep.launch, problem.params()).launch);
    REQUIRE(record.kernels.size() == 1);
    const course::KernelLaunch& launch = record.kernels.front();
    CHECK_MESSAGE(launch.shared_bytes() == 0, launch.shared_bytes(), " bytes of shared memory per block");
    // A 16x16 block of strips 16 pixels wide and 2 rows high covers 256x32
    // pixels: 8x64 blocks for 2048x2048.
    CHECK_MESSAGE(launch.blocks() == 8u * 64u, launch.blocks(), " blocks of ", launch.threads_per_block(),
                  " threads for 2048x2048 pixels");
}

TEST_CASE("step 10 runs at least 0.85x as fast as the reference solution of step 10") {
    if (!course::testing::timing_is_meaningful()) return;
    // The course's speed rule (tests/speed_rule.h); what the untouched starter
    // measures in it is in lessons/convolution/README.md's starters table.
    testing::check_speed({kPrevious, kReference, kStep}, /*memory_only_too=*/false,
                         "the 16x2 strips with their six rows in registers (every loop unrolled, no shared memory) "
                         "and the seven dp4a per pixel on column words; the README's Nsight Compute command counts "
                         "the instructions per pixel");
}
