// Reduction, step 05: the last warp unrolled.
//
// When 32 or fewer threads are left in the tree, they all sit in warp 0, and
// the __syncthreads() of each round, which every warp of the block must
// reach, costs more than the adds. So the tree stops its loop at s = 64 and
// warp 0 finishes the last six rounds (32, 16, 8, 4, 2, 1) unrolled,
// synchronising only itself; the other warps are done.
//
// Harris's version (2007) had no synchronisation at all there: it read and
// wrote through a `volatile` pointer and relied on the 32 threads of a warp
// executing each instruction together ("warp-synchronous" code). Since Volta,
// threads of a warp are scheduled independently and may drift apart, so one
// thread can read its neighbour's element before the neighbour has written
// it: a race that compute-sanitizer's racecheck reports and that can give a
// wrong sum. The safe form keeps the running value in a register and puts a
// __syncwarp() between every write and the reads that depend on it.
#include "tracks/reduction/kernels.h"

namespace {

constexpr unsigned int kThreads = 256;
static_assert((kThreads & (kThreads - 1)) == 0,
              "the tree halves the block each round: kThreads must be a power of two");
static_assert(kThreads >= 64, "the unrolled warp starts by adding element tid + 32: kThreads must be at least 64");

// Warp 0 sums sum[0..63] into the return value of lane 0.
__device__ long long last_warp_sum(long long* sum, unsigned int tid) {
    long long v = sum[tid] + sum[tid + 32];
#pragma unroll
    for (unsigned int offset = 16; offset > 0; offset >>= 1) {
        __syncwarp();  // every lane has read what it needed from the last round...
        sum[tid] = v;
        __syncwarp();  // ...and every lane's new value is in place before anyone reads it
        v += sum[tid + offset];
    }
    return v;
}

template <typename T>
__global__ void reduce_unroll_last_warp(const T* __restrict__ in, long long* __restrict__ partial, std::size_t n) {
    __shared__ long long sum[kThreads];
    const unsigned int tid = threadIdx.x;
    const std::size_t i = blockIdx.x * (2 * static_cast<std::size_t>(kThreads)) + tid;
    long long v = i < n ? static_cast<long long>(in[i]) : 0;
    if (i + kThreads < n) v += in[i + kThreads];
    sum[tid] = v;
    __syncthreads();

    for (unsigned int s = kThreads / 2; s > 32; s >>= 1) {
        if (tid < s) sum[tid] += sum[tid + s];
        __syncthreads();
    }
    if (tid < 32) {
        const long long total = last_warp_sum(sum, tid);
        if (tid == 0) partial[blockIdx.x] = total;
    }
}

}  // namespace

void reduction::step05_unroll_last_warp(const int* in, std::size_t n, long long* sum, long long* scratch,
                                        cudaStream_t stream) {
    reduce_in_passes(
        in, n, sum, scratch, stream,
        [](auto* input, std::size_t count, long long* output, unsigned int blocks, cudaStream_t s) {
            reduce_unroll_last_warp<<<blocks, kThreads, 0, s>>>(input, output, count);
            CUDA_CHECK_LAUNCH();
        },
        [](std::size_t count) { return blocks_covering(count, 2 * kThreads); });
}
