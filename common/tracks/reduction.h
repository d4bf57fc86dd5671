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
#include "course/compare.h"
#include "course/kernel_copy.h"
#include "course/runner.h"
#include "course/track.h"

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <vector>

namespace reduction {

// Every step's launcher: *sum = in[0] + ... + in[n-1] (device pointers).
// `scratch` is device memory for partial sums and counters,
// scratch_elements(n) long longs. The harness zeroes it before a step's first
// launch; a launcher that keeps a counter there must leave it at zero when it
// finishes, ready for its next launch.
using Launcher = void (*)(const int* in, std::size_t n, long long* sum, long long* scratch, cudaStream_t stream);

// The launchers, one per step (inline namespace: see course/kernel_copy.h).
inline namespace COURSE_KERNEL_COPY {
void step01_interleaved_divergent(const int* in, std::size_t n, long long* sum, long long* scratch, cudaStream_t stream);
void step02_interleaved_strided(const int* in, std::size_t n, long long* sum, long long* scratch, cudaStream_t stream);
void step03_sequential(const int* in, std::size_t n, long long* sum, long long* scratch, cudaStream_t stream);
void step04_first_add_on_load(const int* in, std::size_t n, long long* sum, long long* scratch, cudaStream_t stream);
void step05_unroll_last_warp(const int* in, std::size_t n, long long* sum, long long* scratch, cudaStream_t stream);
void step06_complete_unroll(const int* in, std::size_t n, long long* sum, long long* scratch, cudaStream_t stream);
void step07_many_per_thread(const int* in, std::size_t n, long long* sum, long long* scratch, cudaStream_t stream);
void step08_warp_shuffles(const int* in, std::size_t n, long long* sum, long long* scratch, cudaStream_t stream);
void step09_vector_single_pass(const int* in, std::size_t n, long long* sum, long long* scratch, cudaStream_t stream);
}  // inline namespace COURSE_KERNEL_COPY

// Scratch for any step: the partial sums of every pass (n / 64 + n / 64^2 +
// ... < n / 32 when every block sums at least 64 values; the solutions' blocks
// sum 256 or 512) plus a few per pass for rounding up, and counters.
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
        out = blocks == 1 ? sum : out + count;   // the next pass writes after this one's partials
        launch_pass(partials, count, out, blocks, stream);
    }
}

// Blocks for a pass in which each block sums `per_block` consecutive values.
inline std::size_t blocks_covering(std::size_t count, std::size_t per_block) {
    return (count + per_block - 1) / per_block;
}

// --- The problem --------------------------------------------------------

inline constexpr std::size_t kDefaultSize = std::size_t{1} << 22;  // Harris's 4M ints

// Random ints, negative ones included, their 64-bit sum, and device buffers.
class Problem {
public:
    // Values uniform in [-2^30, 2^30): sums of a few of them already overflow
    // int32, so a 32-bit accumulator is caught. `offset` starts the input that
    // many ints past its allocation's start, so that tests can hand a kernel a
    // pointer that is not 16-byte aligned.
    Problem(std::size_t n, std::uint64_t seed, std::size_t offset = 0);

    std::size_t size() const { return n_; }
    const int* input() const { return input_.data() + offset_; }
    long long expected() const { return expected_; }
    double bytes_read() const { return 4.0 * static_cast<double>(n_); }

    course::KernelRun run(Launcher launch);
    course::CheckResult check() const;

private:
    std::size_t n_, offset_;
    course::DeviceBuffer<int> input_;
    course::DeviceBuffer<long long> sum_, scratch_;
    long long expected_ = 0;
};

// The CPU reference: exact 64-bit sum.
long long reference(const std::vector<int>& values);

// CUB's DeviceReduce::Sum into a long long, with its temporary storage
// allocated up front (reduction_cub.cu).
class CubSum {
public:
    CubSum(const int* in, std::size_t n, long long* sum);
    void enqueue(cudaStream_t stream);

private:
    const int* in_;
    std::size_t n_;
    long long* sum_;
    course::DeviceBuffer<unsigned char> temp_;
};

struct Step {
    int number;
    const char* title;
    Launcher launch;
};

// Harris's G80 figures at 2^22 ints (8800 GTX), as Mueller and Ha quote them:
// time in ms and bandwidth in GB/s per kernel 1..7.
struct HarrisFigure {
    double ms;
    double gbps;
};
const HarrisFigure* harris_g80(int step);   // nullptr for steps 8, 9

std::size_t size_from(const course::Options& options);

// The ladder of `steps` (the student's row marked), then CUB, with the
// measured read-sweep ceiling as a note.
std::vector<course::Ladder> run_ladder(const std::vector<Step>& steps, const course::TrackRun& run);

// The track with the steps this program was built with (reduction_steps.cpp).
course::Track track();

}  // namespace reduction
