// Grading test of occupancy step 03 (registers per thread as the limiter).
// Built twice: against lessons/occupancy/03_registers/kernel.cu (suite
// "grade") and against the reference solution (suite "solutions").
#include "occupancy/helpers.h"

using namespace occupancy::testing;

COURSE_SOLUTION_LAUNCHER(occupancy, step03_registers)

namespace {
occupancy::StreamShape variant(int v) { return occupancy::StreamShape{256, 0, v}; }
}  // namespace

TEST_CASE("step 03 computes out[i] = f(in[i]) at every grading size, in every variant") {
    std::vector<occupancy::StreamShape> shapes;
    for (int v = 0; v < occupancy::kHeldVariants; ++v) shapes.push_back(variant(v));
    check_grading_sizes(occupancy::step03_registers, shapes);
}

TEST_CASE("step 03: each variant holds its values in registers, so registers per thread rise with them") {
    // cudaFuncGetAttributes (through the recorded launch): a variant that
    // holds k values needs at least k registers, more than the variant
    // before it, and no local memory (held values spilled to memory would
    // not limit occupancy, and would cost loads).
    int previous = 0;
    for (int v = 0; v < occupancy::kHeldVariants; ++v) {
        const course::KernelLaunch launch = launch_of(occupancy::step03_registers, variant(v));
        const int held = occupancy::kHeldValues[v];
        CAPTURE(held);
        CHECK_MESSAGE(launch.attributes.numRegs >= held, "the variant holding ", held, " values uses ",
                      launch.attributes.numRegs, " registers per thread");
        if (v > 0)
            CHECK_MESSAGE(launch.attributes.numRegs > previous, "holding ", held, " values takes ",
                          launch.attributes.numRegs, " registers, the variant before ", previous);
        CHECK(launch.attributes.localSizeBytes == 0);
        CHECK(launch.threads_per_block() == 256);
        previous = launch.attributes.numRegs;
    }
}

TEST_CASE("step 03: the occupancy the runtime predicts falls as registers rise") {
    const course::KernelLaunch first = launch_of(occupancy::step03_registers, variant(0));
    const course::KernelLaunch last = launch_of(occupancy::step03_registers, variant(occupancy::kHeldVariants - 1));
    const int full = occupancy::api_active_blocks(first.function, 256, 0);
    const int few = occupancy::api_active_blocks(last.function, 256, 0);
    CHECK_MESSAGE(few < full, "the runtime fits ", few, " blocks of the last variant and ", full, " of the first");
}

TEST_CASE("step 03 runs at least 0.85x as fast as the reference solution of step 03") {
    if (!course::testing::timing_is_meaningful()) return;
    for (const int v : {0, 6}) {
        CAPTURE(occupancy::kHeldValues[v]);
        check_speed(3, occupancy::solution::step03_registers, occupancy::step03_registers, variant(v),
                    "one load in flight per thread, the held values read before the loop and used only after it");
    }
}
