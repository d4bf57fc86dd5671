// The reduction track: the sum of n int32 values, after M. Harris,
// "Optimizing Parallel Reduction in CUDA" (NVIDIA, 2007), as presented in K.
// Mueller and S. Ha's "CUDA Memory Optimization" slides (SPIE Medical Imaging
// 2016). Full citations: the References section of README.md.
//
// Reading n ints once is the least any sum can do, so the ceiling is the
// GPU's read bandwidth; the library rung is CUB's DeviceReduce::Sum.
//
// Sums are 64-bit. 2^26 values of up to 2^30 in magnitude (the course's
// inputs) overflow int32 long before the end, so every kernel accumulates in long long, and the result is
// exact: it must equal the CPU's 64-bit sum to the last bit.
#pragma once

#include "course/check.h"
#include "course/kernel_copy.h"

#include <cuda_runtime.h>

#include <cstddef>

namespace reduction {

// Every step's launcher: *sum = in[0] + ... + in[n-1] (device pointers).
// `scratch` is device memory for partial sums and counters,
// scratch_elements(n) long longs. The harness zeroes it once, before a step's
// first launch, and never again: before each checked call it writes new
// inputs into `in` and poisons *sum (the timed launches follow one another
// with neither), and resets nothing else. A launcher that keeps a
// counter there must leave it at zero when it finishes, ready for its next
// launch.
using Launcher = void (*)(const int* in, std::size_t n, long long* sum, long long* scratch, cudaStream_t stream);

// The launchers, one per step: step<NN>_<folder name>, e.g. step03_sequential
// for lessons/reduction/03_sequential. The steps are listed once, in
// lessons/reduction/meson.build; Meson writes the list out as
// reduction_steps.h, one COURSE_STEP(number, launcher, title) line per
// step. (The inline namespace: see course/kernel_copy.h.)
inline namespace COURSE_KERNEL_COPY {
#define COURSE_STEP(number, launcher, title) \
    void launcher(const int* in, std::size_t n, long long* sum, long long* scratch, cudaStream_t stream);
#include "reduction_steps.h"
#undef COURSE_STEP
}  // namespace COURSE_KERNEL_COPY

// Scratch for any step: the partial sums of every pass (n / 64 + n / 64^2 +
// ... < n / 32 when every block sums at least 64 values; the solutions' blocks
// sum 256 values or more) plus a few per pass for rounding up, and counters.
inline std::size_t scratch_elements(std::size_t n) { return n / 32 + 1024; }

// --- Reducing level by level, as Harris did -----------------------------
//
// Steps 01 to 08 sum in passes: a pass turns `count` values into one partial
// sum per block, and passes repeat over the partial sums until one value is
// left. Only the kernel differs from step to step, so the loop lives here.
// `launch_pass(input, count, output, blocks, stream)` enqueues one pass; it is
// called with `const int*` for the first pass and `const long long*` after.
// `blocks_for(count)` says how many blocks a pass over `count` values uses.
template <typename LaunchPass, typename BlocksFor>
void reduce_in_passes(const int* in, std::size_t n, long long* sum, long long* scratch, cudaStream_t stream,
                      LaunchPass launch_pass, BlocksFor blocks_for) {
    if (n == 0) throw course::Error("reduction: n must be at least 1");
    auto grid = [&](std::size_t count) {
        const std::size_t blocks = blocks_for(count);
        if (blocks > 0x7fffffffu) throw course::Error("reduction: n is too large for this step's grid");
        return static_cast<unsigned int>(blocks);
    };
    unsigned int blocks = grid(n);
    long long* out = blocks == 1 ? sum : scratch;
    launch_pass(in, n, out, blocks, stream);
    while (blocks > 1) {
        const long long* partials = out;
        const std::size_t count = blocks;
        blocks = grid(count);
        out = blocks == 1 ? sum : out + count;  // the next pass writes after this one's partials
        launch_pass(partials, count, out, blocks, stream);
    }
}

// Blocks for a pass in which each block sums `per_block` consecutive values.
inline std::size_t blocks_covering(std::size_t count, std::size_t per_block) {
    return (count + per_block - 1) / per_block;
}

}  // namespace reduction
