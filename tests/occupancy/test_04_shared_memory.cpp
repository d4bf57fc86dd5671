// Grading test of occupancy step 04 (shared memory per block as the limiter).
// Built twice: against lessons/occupancy/04_shared_memory/kernel.cu (suite
// "grade") and against the reference solution (suite "solutions").
#include "occupancy/helpers.h"

using namespace occupancy::testing;

COURSE_SOLUTION_LAUNCHER(occupancy, step04_shared_memory)

namespace {
occupancy::StreamShape shared(std::size_t bytes) { return occupancy::StreamShape{256, bytes, 0}; }
}  // namespace

TEST_CASE("step 04 computes out[i] = f(in[i]) at every grading size, with and without shared memory") {
    const occupancy::SmLimits sm = occupancy::limits_of(harness().device.ordinal);
    check_grading_sizes(occupancy::step04_shared_memory,
                        {shared(0), shared(48 * 1024), shared(occupancy::shared_bytes_for_blocks(sm, 1))});
}

TEST_CASE("step 04 launches each sweep point with its dynamic shared memory") {
    const occupancy::SmLimits sm = occupancy::limits_of(harness().device.ordinal);
    int previous_blocks = 1 << 30;
    for (const occupancy::StreamPoint& point : occupancy::stream_points(4, sm)) {
        const course::KernelLaunch launch = launch_of(occupancy::step04_shared_memory, point.shape);
        CAPTURE(point.shape.shared_bytes);
        CHECK(launch.dynamic_shared_bytes == point.shape.shared_bytes);
        CHECK(launch.threads_per_block() == 256);
        // The runtime's own count of resident blocks, for this launch: it
        // never grows as the shared memory per block does.
        const int blocks = occupancy::api_active_blocks(launch.function, 256, launch.dynamic_shared_bytes);
        CHECK(blocks >= 1);
        CHECK(blocks <= previous_blocks);
        previous_blocks = blocks;
    }
    CHECK_MESSAGE(previous_blocks <= 2, "at the sweep's largest shared memory the SM still holds ", previous_blocks,
                  " blocks");
}

TEST_CASE("step 04 runs at least 0.85x as fast as the reference solution of step 04") {
    if (!course::testing::timing_is_meaningful()) return;
    check_speed(4, occupancy::solution::step04_shared_memory, occupancy::step04_shared_memory, shared(32 * 1024),
                "the launch's third parameter (dynamic shared memory), one load in flight per thread");
}
