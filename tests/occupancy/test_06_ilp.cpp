// Grading test of occupancy step 06 (occupancy or instruction-level
// parallelism). Built twice: against lessons/occupancy/06_ilp/kernel.cu
// (suite "grade") and against the reference solution (suite "solutions").
#include "occupancy/helpers.h"

using namespace occupancy::testing;

COURSE_SOLUTION_LAUNCHER(occupancy, step06_ilp)

TEST_CASE("step 06 computes out[i] = f(in[i]) at every grading size, for every number of loads in flight") {
    const occupancy::SmLimits sm = occupancy::limits_of(harness().device.ordinal);
    std::vector<occupancy::StreamShape> shapes;
    for (const occupancy::StreamPoint& point : occupancy::stream_points(6, sm)) shapes.push_back(point.shape);
    shapes.push_back({96, 0, occupancy::kLoadsVariants - 1});  // not a power of two
    check_grading_sizes(occupancy::step06_ilp, shapes);
}

TEST_CASE("step 06 launches each point with its shape, the low-occupancy points at two blocks per SM") {
    const occupancy::SmLimits sm = occupancy::limits_of(harness().device.ordinal);
    for (const occupancy::StreamPoint& point : occupancy::stream_points(6, sm)) {
        const course::KernelLaunch launch = launch_of(occupancy::step06_ilp, point.shape);
        CAPTURE(point.shape.variant);
        CAPTURE(point.shape.shared_bytes);
        CHECK(launch.threads_per_block() == static_cast<std::size_t>(point.shape.threads));
        CHECK(launch.dynamic_shared_bytes == point.shape.shared_bytes);
        CHECK(launch.attributes.localSizeBytes == 0);
        if (point.sweep == 0)
            CHECK(occupancy::api_active_blocks(launch.function, point.shape.threads, point.shape.shared_bytes) ==
                  occupancy::kIlpLowBlocks);
    }
}

TEST_CASE("step 06 runs at least 0.85x as fast as the reference solution of step 06, at low occupancy") {
    if (!course::testing::timing_is_meaningful()) return;
    // At two blocks per SM, one load in flight per thread leaves the memory
    // idle most of the time; the loads in flight are the step's idea, and
    // the time shows whether they are there.
    const occupancy::SmLimits sm = occupancy::limits_of(harness().device.ordinal);
    const std::size_t low = occupancy::shared_bytes_for_blocks(sm, occupancy::kIlpLowBlocks);
    for (const int v : {2, 3}) {
        CAPTURE(occupancy::kLoadsPerThread[v]);
        check_speed(6, occupancy::solution::step06_ilp, occupancy::step06_ilp, {occupancy::kIlpThreads, low, v},
                    "kLoads loads issued before the first value is used (an array of kLoads values, loaded in "
                    "one unrolled loop, stored in another), the loop over groups kept rolled");
    }
}
