// Shared by the matmul grading tests: the grading shapes, the correctness
// sweep over them, and the race against the reference solution of the step.
#pragma once

#include "doctest_include.h"
#include "gpu_test.h"
#include "own_kernels.h"
#include "shifted_arrays.h"
#include "speed_rule.h"
#include "tracks/matmul/track.h"

#include <string>
#include <utility>
#include <vector>

namespace matmul::testing {

// The shapes every matmul grading test tries (M x N x K):
//   1 x 1 x 1         one element: every tile is almost all padding;
//   31 x 33 x 17      smaller than any tile, and a multiple of nothing;
//   127 x 65 x 129    a few tiles, ragged in every dimension;
//   1000^3            many tiles, a multiple of none of 16, 64, 128 (every
//                     element checked against the CPU);
//   2053^3            a prime above 2000: the last tile of every row and
//                     column of tiles is partial (a sampled check);
//   512 x 256 x 384   multiples of every tile, so that the fast paths of
//                     steps 06 to 10 are checked too (the ragged shapes take
//                     their checked paths);
//   520 x 256 x 384, 512 x 260 x 384, 512 x 256 x 388
//                     the same, ragged in one dimension each (by a multiple
//                     of 4, so rows stay 16-byte aligned): a fast-path test
//                     that forgets one of M, N or K takes its fast path there;
//   128 x 128 x 130   N a multiple of 4 and K not: B's rows are 16-byte
//                     aligned and A's are not (step 10's A-by-rows
//                     configurations must copy A 4 bytes at a time).
inline const std::vector<Shape> kShapes = {
    {1, 1, 1},       {31, 33, 17},    {127, 65, 129},  {1000, 1000, 1000}, {2053, 2053, 2053},
    {512, 256, 384}, {520, 256, 384}, {512, 260, 384}, {512, 256, 388},    {128, 128, 130},
};

// The grade setup's memcheck run of a lesson (small sizes:
// course::testing::small_sizes_only()) leaves out the two largest shapes,
// those over 10^9 FLOP; the memcheck setup runs every shape. Under racecheck
// every shared-memory access is tracked, and a shape of 10^8 FLOP takes
// seconds (step 10 times each of its configurations on every new shape): that
// run keeps the shapes under 10^8 FLOP, which take the checked paths, and adds
// 256 x 256 x 128, whole tiles of every step with 8 phases of 16 terms, for
// the fast paths. A race shows at any shape with several phases.
inline constexpr Shape kRacecheckWholeTiles{256, 256, 128};

inline std::vector<Shape> shapes_for_this_run() {
    const bool racecheck = course::testing::under_racecheck();
    if (!racecheck && !course::testing::small_sizes_only()) return kShapes;
    std::vector<Shape> small;
    for (const Shape& shape : kShapes)
        if (shape.flops() < (racecheck ? 1e8 : 1e9)) small.push_back(shape);
    if (racecheck) small.push_back(kRacecheckWholeTiles);
    return small;
}

// Checks `launch` once at every grading shape (random inputs seeded by
// `seed` and the shape), and that it runs kernels of its own there
// (tests/own_kernels.h).
inline void check_every_shape(Launcher launch, std::uint64_t seed) {
    for (const Shape& shape : shapes_for_this_run()) {
        const std::string name = shape.describe();
        CAPTURE(name);
        Problem problem(shape, seed + static_cast<std::uint64_t>(shape.M) * 7919u + shape.K);
        const course::CheckResult result = course::check_once(course::testing::harness(), problem.run(launch));
        CHECK_MESSAGE(result.ok, name, ": ", result.summary());
        course::testing::check_launches_own_kernels(problem.run(launch).launch, "at " + name);
    }
}

// Checks `launch` on matrices that start 1, 2 or 3 floats past a 16-byte
// boundary, at a shape that is a multiple of every tile of steps 06 to 10
// (block tiles up to 256 x 256, 32 terms a phase): a kernel that takes its
// float4 path there reads and writes misaligned addresses. One matrix at a
// time, then all three: a kernel that checks only A's alignment would pass
// with all three shifted.
// Under racecheck (races do not depend on alignment) only all three by 1
// float: the checked path's kernel, with step 10's timing of its
// configurations on each new alignment kept to one.
inline void check_misaligned(Launcher launch, std::uint64_t seed) {
    const Shape shape{256, 256, 64};
    const bool racecheck = course::testing::under_racecheck();
    for (const std::size_t offset : {1, 2, 3}) {
        if (racecheck && offset > 1) break;
        std::vector<course::Offsets> shifts = course::offsets_one_at_a_time(offset);
        if (racecheck) shifts = {shifts.back()};
        course::testing::check_each_shift(
            shifts, {"A", "B", "C"}, "float",
            [&](const course::Offsets& offsets) { return Problem(shape, seed + offset, offsets); }, launch);
    }
}

// The kernel's registers, shared and local memory, for the test's log.
inline std::string describe(const cudaFuncAttributes& attributes) {
    return std::to_string(attributes.numRegs) + " registers, " + std::to_string(attributes.sharedSizeBytes) +
           " bytes of shared memory per block, " + std::to_string(attributes.localSizeBytes) +
           " bytes of local memory per thread";
}

// The kernel keeps its per-thread arrays (partial sums, fragments) in
// registers: no local memory, which is where arrays go that the compiler
// cannot index at compile time, or that do not fit under the register cap.
inline void check_registers_only(const cudaFuncAttributes& attributes) {
    MESSAGE(describe(attributes));
    CHECK_MESSAGE(attributes.localSizeBytes == 0, "the kernel uses ", attributes.localSizeBytes,
                  " bytes of local memory per thread: unroll the loops that index per-thread arrays "
                  "(#pragma unroll), and mind the register cap that __launch_bounds__ sets");
}

// The speed rule (tests/speed_rule.h) at `size` (as for --size): `graded` at
// least 0.85x as fast as `reference`, the reference solution of its step,
// with `previous` (the step before's solution; left out for step 01) in the
// table for comparison, and cuBLAS last. The race's options are built in
// code: they declare the track's --steps at its default (every step), as
// course-ladders does.
inline void check_speed(std::vector<Step> steps, const std::string& size, const std::string& advice) {
    // Named before `steps` is handed over: the order in which a call's
    // arguments are evaluated is unspecified.
    const std::string lesson = "matmul " + course::step_label(steps.back().number);
    course::testing::check_speed_rule(lesson, run_ladder, std::move(steps), size, advice,
                                      course::option_defaults({steps_option()}));
}

}  // namespace matmul::testing
