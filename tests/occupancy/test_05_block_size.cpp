// Grading test of occupancy step 05 (threads per block as the limiter).
// Built twice: against lessons/occupancy/05_block_size/kernel.cu (suite
// "grade") and against the reference solution (suite "solutions").
#include "occupancy/helpers.h"

using namespace occupancy::testing;

COURSE_SOLUTION_LAUNCHER(occupancy, step05_block_size)

namespace {
occupancy::StreamShape threads(int count) { return occupancy::StreamShape{count, 0, 0}; }
}  // namespace

TEST_CASE("step 05 computes out[i] = f(in[i]) at every grading size and block size, warp multiples or not") {
    check_grading_sizes(occupancy::step05_block_size,
                        {threads(32), threads(33), threads(96), threads(256), threads(1000), threads(1024)});
}

TEST_CASE("step 05 launches each sweep point with its threads per block") {
    const occupancy::SmLimits sm = occupancy::limits_of(harness().device.ordinal);
    for (const occupancy::StreamPoint& point : occupancy::stream_points(5, sm)) {
        const course::KernelLaunch launch = launch_of(occupancy::step05_block_size, point.shape);
        CAPTURE(point.shape.threads);
        CHECK(launch.threads_per_block() == static_cast<std::size_t>(point.shape.threads));
        CHECK(launch.dynamic_shared_bytes == 0);
    }
    // Dynamic shared memory still works as in step 04.
    const course::KernelLaunch launch = launch_of(occupancy::step05_block_size, {128, 20000, 0});
    CHECK(launch.threads_per_block() == 128);
    CHECK(launch.dynamic_shared_bytes == 20000);
}

TEST_CASE("step 05: blocks of one warp leave warp slots empty") {
    // The block limit binds for 32-thread blocks on every GPU the course
    // runs on (16 to 32 blocks of one warp, of 32 to 64 warp slots).
    const occupancy::SmLimits sm = occupancy::limits_of(harness().device.ordinal);
    const course::KernelLaunch launch = launch_of(occupancy::step05_block_size, threads(32));
    const int blocks = occupancy::api_active_blocks(launch.function, 32, 0);
    CHECK(blocks == sm.max_blocks_per_sm);
    CHECK(blocks < sm.max_warps_per_sm);
}

TEST_CASE("step 05 runs at least 0.85x as fast as the reference solution of step 05") {
    if (!course::testing::timing_is_meaningful()) return;
    for (const int count : {64, 256}) {
        CAPTURE(count);
        check_speed(5, occupancy::solution::step05_block_size, occupancy::step05_block_size, threads(count),
                    "the launch's block size (shape.threads) and a grid sized for it, one load in flight per thread");
    }
}
