// Ideas of steps 03, 06, 07 and 08 seen without a clock, for their grading tests and
// for the grading's self-test (tests/matmul/test_structure_plants.cpp), which
// shows each check failing the untouched starter (the step before's
// solution): those starters pass every other check of their step and miss
// the race by little (step 06 gains about 1.25x, step 08 about 1.2x).
#pragma once

#include "course/check.h"
#include "course/launches.h"
#include "gpu_test.h"
#include "sass_listing.h"
#include "tracks/matmul/track.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace matmul::testing {

struct StructureCheck {
    bool ok = false;
    std::string what;  // what was seen, and what was expected
};

// A shape that is a multiple of every tile: the fast path's kernel runs.
inline constexpr Shape kTiledShape{512, 256, 384};

// Step 06's float4 path: a kernel of its own (vector_loads<false>, as the
// lesson builds it), launched for matrices on a 16-byte boundary at a shape
// that is a multiple of every tile, while the same matrices one float past
// the boundary take the checked path's kernel; and that kernel's machine code
// (cuobjdump -sass of `library`, the static library built from the graded
// kernel.cu) holds 16-byte global loads (LDG...128) and 16-byte shared-memory
// reads (LDS...128), the step's float4 accesses. The untouched starter (step
// 05's solution) launches one kernel for both: it has no float4 path. A
// second kernel that still loads 4 bytes at a time has none either.
inline StructureCheck check_float4_path(Launcher graded, const std::string& library) {
    Problem aligned(kTiledShape, 3), misaligned(kTiledShape, 3, course::Offsets{1, 1, 1});
    const course::LaunchRecord fast = course::record_launches(aligned.run(graded).launch);
    const course::LaunchRecord checked = course::record_launches(misaligned.run(graded).launch);
    if (fast.kernels.size() != 1 || checked.kernels.size() != 1)
        return {false, "the launcher launched " + std::to_string(fast.kernels.size()) + " and " +
                           std::to_string(checked.kernels.size()) + " kernels, not one"};
    if (fast.kernels.front().function == checked.kernels.front().function)
        return {false, "the launcher launches the same kernel for matrices on a 16-byte boundary and for matrices one "
                       "float past it: the float4 path is a kernel of its own (vector_loads<false>, when "
                       "fits_fast_path allows it), the checked path another"};
    std::string name, why;
    course::testing::KernelCode code;
    if (!course::testing::launched_kernel_code(fast.kernels.front().function, COURSE_CUOBJDUMP, library, name, code,
                                               why))
        return {false, why};
    const std::size_t loads = course::testing::count_lines_with(code.lines, {"LDG.", ".128"});
    const std::size_t reads = course::testing::count_lines_with(code.lines, {"LDS.", ".128"});
    const std::string seen = "matrices on a 16-byte boundary take a kernel of their own, " + name + ", whose machine " +
                             "code holds " + std::to_string(loads) + " 16-byte global loads (LDG...128) and " +
                             std::to_string(reads) + " 16-byte shared-memory reads (LDS...128)";
    if (loads == 0 || reads == 0)
        return {false, seen + ": the float4 path loads its tiles with load4 (one float4 per thread and matrix) and "
                              "reads the fragments as float4s"};
    return {true, seen};
}

// The shared memory per block of the kernels `launch` enqueues at
// kTiledShape (the largest, where it enqueues several), static and dynamic,
// read from the launch (captured, not run): tiles in `extern __shared__`
// memory count as much as static arrays, which the kernel's attributes alone
// would miss. -1 when the launcher enqueues no kernel there.
inline long long shared_bytes_launched(Launcher launch) {
    Problem problem(kTiledShape, 1);
    const course::LaunchRecord record = course::record_launches(problem.run(launch).launch);
    long long most = -1;
    for (const course::KernelLaunch& kernel : record.kernels)
        most = std::max(most, static_cast<long long>(kernel.shared_bytes()));
    return most;
}

// The graded kernel's shared memory per block (shared_bytes_launched) is at
// least `needed`, what `needs` takes.
inline StructureCheck check_shared_at_least(Launcher graded, long long needed, const std::string& needs) {
    const long long bytes = shared_bytes_launched(graded);
    if (bytes < 0 || needed < 0) return {false, "a launcher enqueued no kernel at " + kTiledShape.describe()};
    return {bytes >= needed, "the kernel has " + std::to_string(bytes) +
                                 " bytes of shared memory per block (static and dynamic); " + needs + " take " +
                                 std::to_string(needed)};
}

// The double buffer: two stages of tiles in shared memory, so the kernel's
// shared memory per block (static and dynamic, at kTiledShape) is at least
// twice `one_stage`'s, step 07's solution, whose one stage of 8 x (128 + 4)
// and 8 x 128 floats takes 8,320 bytes. Any tiles at least step 07's pass:
// the reference solution's two stages of 16-term tiles (33,280 bytes), or two
// of 8-term tiles (16,640 bytes), the variant its README suggests trying. It
// counts bytes, not stages: one stage of 16-term tiles takes 16,640 bytes too
// and passes; what the stages do is racecheck's and the race's to grade.
inline StructureCheck check_two_stages(Launcher graded, Launcher one_stage) {
    const long long one = shared_bytes_launched(one_stage);
    return check_shared_at_least(graded, one < 0 ? -1 : 2 * one, "two stages of step 07's tiles");
}

// The warp tile: the first warp of the first block, run alone (one block of
// 32 threads, the kernel's own arguments) on a poisoned C, writes the outputs
// that warp owns (their values are wrong: the other warps did not load their
// part of the tiles, and do not matter). With a warp tile they form a compact
// block, 32 x 64 in the reference solution; step 07's warp, two rows of 16
// threads each owning 8 x 8 outputs in two groups of 4 rows (64 apart) by two
// of 4 columns, spans 72 rows by 128 columns. The check: the rectangle around
// the outputs the first warp wrote holds at most kWarpTileArea elements (64 x
// 64, 32 x 128, 128 x 32, ...; step 07's holds 9,216). (Run twice, with C
// poisoned by two byte patterns: a written value that happens to equal one
// poison still shows in the other run.)
inline constexpr int kWarpTileArea = 64 * 64;
inline StructureCheck check_warp_tile(Launcher graded) {
    Problem problem(kTiledShape, 2);
    const std::size_t count = static_cast<std::size_t>(kTiledShape.M) * kTiledShape.N;
    std::vector<bool> written(count, false);
    course::Stream stream;
    for (const std::uint8_t poison : {std::uint8_t{0xFF}, std::uint8_t{0xA5}}) {
        CUDA_CHECK(cudaMemsetAsync(problem.c(), poison, count * sizeof(float), stream.get()));
        course::run_captured_kernel_as(problem.run(graded).launch, dim3(1), dim3(32), stream.get());
        CUDA_CHECK(cudaGetLastError());
        std::vector<std::uint32_t> c(count);
        CUDA_CHECK(cudaMemcpyAsync(c.data(), problem.c(), count * sizeof(float), cudaMemcpyDeviceToHost, stream.get()));
        CUDA_CHECK(cudaStreamSynchronize(stream.get()));
        std::uint32_t word = 0;
        std::memset(&word, poison, sizeof word);
        for (std::size_t i = 0; i < count; ++i)
            if (c[i] != word) written[i] = true;
    }
    int first_row = kTiledShape.M, last_row = -1, first_col = kTiledShape.N, last_col = -1;
    std::size_t outputs = 0;
    for (std::size_t i = 0; i < count; ++i) {
        if (!written[i]) continue;
        ++outputs;
        const int row = static_cast<int>(i / kTiledShape.N), col = static_cast<int>(i % kTiledShape.N);
        first_row = std::min(first_row, row);
        last_row = std::max(last_row, row);
        first_col = std::min(first_col, col);
        last_col = std::max(last_col, col);
    }
    if (outputs == 0)
        return {false, "the first warp of a block, run alone, wrote no element of C: a warp tile has each warp "
                       "store its own outputs"};
    const int rows = last_row - first_row + 1, cols = last_col - first_col + 1;
    return {static_cast<long long>(rows) * cols <= kWarpTileArea,
            "the first warp of a block, run alone, wrote " + std::to_string(outputs) + " elements of C in rows " +
                std::to_string(first_row) + " to " + std::to_string(last_row) + " and columns " +
                std::to_string(first_col) + " to " + std::to_string(last_col) + " (" + std::to_string(rows) + " x " +
                std::to_string(cols) + "); a warp tile keeps a warp's outputs in a rectangle of at most " +
                std::to_string(kWarpTileArea) +
                " elements, such as 64 x 64 or 32 x 128 (the reference solution's: 32 x 64; step 07's warp spans 72 x "
                "128)"};
}

}  // namespace matmul::testing
