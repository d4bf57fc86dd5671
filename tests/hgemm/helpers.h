// Shared by the hgemm grading tests: the grading shapes, the correctness
// sweep over them, and the race against the reference solution of the step.
#pragma once

#include "doctest_include.h"
#include "gpu_test.h"
#include "own_kernels.h"
#include "shifted_arrays.h"
#include "speed_rule.h"
#include "tracks/hgemm/track.h"

#include "hgemm/structure.h"

#include <string>
#include <vector>

namespace hgemm::testing {

// The shapes every hgemm grading test tries (M x N x K):
//   1 x 1 x 1          one element: every tile is almost all padding;
//   17 x 33 x 65       one past a multiple of 16 in every dimension, so every
//                      tile is ragged, and K and N break WMMA's pitch rule;
//   1000 x 3000 x 500  many tiles; M and N multiples of 8 but not of 16 (nor
//                      of 64 or 128), K not even of 8 (A's rows are not
//                      16-byte multiples), M != N != K (a sampled check);
//   1023 x 1023 x 1023 one less than a power of two: the last tile of every
//                      row and column of tiles is partial, every element
//                      checked against the CPU;
//   1025 x 1025 x 1025 one more: a last tile one element wide (a sampled
//                      check);
//   512 x 256 x 384    multiples of every tile, so that the fast paths are
//                      checked too (the shapes above take the checked paths);
//   520 x 256 x 384, 512 x 264 x 384, 512 x 256 x 392
//                      the same, ragged in one dimension each (by a multiple
//                      of 8, so rows stay 16-byte multiples): a fast-path test
//                      that forgets one of M, N or K takes its fast path there.
// The 4095^3 and 4097^3 of the course's ladders, scaled down to keep the tests
// fast: a partial tile is as partial at 1023 as at 4095.
inline const std::vector<Shape> kShapes = {
    {1, 1, 1},       {17, 33, 65},    {1000, 3000, 500}, {1023, 1023, 1023}, {1025, 1025, 1025},
    {512, 256, 384}, {520, 256, 384}, {512, 264, 384},   {512, 256, 392},
};

// Under racecheck every shared-memory access is tracked, and the large shapes
// would take hours: that run leaves them out (a race shows at any shape with
// several phases), as does the grade setup's memcheck run of a lesson (small
// sizes: course::testing::small_sizes_only()). The memcheck setup runs every
// shape.
inline std::vector<Shape> shapes_for_this_run() {
    if (!course::testing::under_racecheck() && !course::testing::small_sizes_only()) return kShapes;
    std::vector<Shape> small;
    for (const Shape& shape : kShapes)
        if (shape.flops() < 1e9) small.push_back(shape);
    return small;
}

// Shapes whose rows are 16-byte multiples (K and N multiples of 8: the rule
// of the Hopper steps' tensor maps) and whose tiles are still ragged, so that
// the TMA's zero fill makes the edges: M, N and K past a multiple of 64 (a
// box) and of 128 and 256 (a block tile), 8 columns into a block's last
// tile, a k-tile of 8 terms, a single row. Under a sanitizer, those under
// 10^9 FLOP, as above.
inline const std::vector<Shape> kAlignedRaggedShapes = {
    {1, 8, 8}, {17, 40, 72}, {129, 264, 200}, {1000, 1000, 1000}, {1025, 1032, 1096},
};

// Checks `launch` once at each of `shapes` (random inputs seeded by `seed`
// and the shape), and its kernels (tests/own_kernels.h); under a sanitizer or in the grade setup's memcheck run,
// only the shapes under 10^9 FLOP.
inline void check_shapes(const std::vector<Shape>& shapes, Launcher launch, std::uint64_t seed) {
    const bool small = course::testing::under_sanitizer() || course::testing::small_sizes_only();
    for (const Shape& shape : shapes) {
        if (small && shape.flops() >= 1e9) continue;
        const std::string name = shape.describe();
        CAPTURE(name);
        Problem problem(shape, seed + static_cast<std::uint64_t>(shape.M) * 7919u + shape.K);
        const course::CheckResult result = course::check_once(course::testing::harness(), problem.run(launch));
        CHECK_MESSAGE(result.ok, name, ": ", result.summary());
        course::testing::check_launches_own_kernels(problem.run(launch).launch, "at " + name);
    }
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

// Checks `launch` on matrices that start 1 or 8 elements past their
// allocations (2 or 16 bytes for A and B, 4 or 32 bytes for C), at a shape
// that is a multiple of every step's tile (up to 128 x 256 x 64, so that the
// whole-tile paths would run but for the alignment): a kernel that loads whole
// tiles with WMMA or 16-byte loads without checking the alignment reads
// misaligned addresses. One matrix at a time, then all three: a kernel that
// checks only A's alignment would pass with all three shifted. (C shifted by 8
// floats, 32 bytes, stays aligned: C's misaligned case is the shift by 1.)
inline void check_misaligned(Launcher launch, std::uint64_t seed) {
    const Shape shape{256, 256, 64};
    for (const std::size_t offset : {1, 8})
        course::testing::check_each_shift(
            course::offsets_one_at_a_time(offset), {"A", "B", "C"}, "element",
            [&](const course::Offsets& offsets) { return Problem(shape, seed + offset, offsets); }, launch);
}

// The kernel's registers, shared and local memory, for the test's log.
inline std::string describe(const cudaFuncAttributes& attributes) {
    return std::to_string(attributes.numRegs) + " registers, " + std::to_string(attributes.sharedSizeBytes) +
           " bytes of shared memory per block, " + std::to_string(attributes.localSizeBytes) +
           " bytes of local memory per thread";
}

// The kernel keeps its fragments and accumulators in registers: no local
// memory, which is where arrays go that the compiler cannot index at compile
// time, or that do not fit under the register cap.
inline void check_registers_only(const cudaFuncAttributes& attributes) {
    MESSAGE(describe(attributes));
    CHECK_MESSAGE(attributes.localSizeBytes == 0, "the kernel uses ", attributes.localSizeBytes,
                  " bytes of local memory per thread: unroll the loops that index fragment arrays "
                  "(#pragma unroll), and mind the register cap that __launch_bounds__ sets");
}

// The speed rule (tests/speed_rule.h) at `size` (as for --size): `graded` at
// least 0.85x as fast as `reference`, the reference solution of its step,
// with `previous` (the step before's solution; left out for step 01) in the
// table for comparison, and cuBLAS last.
inline void check_speed(std::vector<Step> steps, const std::string& size, const std::string& advice) {
    course::testing::check_speed_rule("hgemm " + course::step_label(steps.back().number), run_ladder, steps, size,
                                      advice);
}

}  // namespace hgemm::testing
