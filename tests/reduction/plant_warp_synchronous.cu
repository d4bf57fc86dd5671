// A plant for the grading's self-test (tests/test_sanitizer_plants.cpp):
// step 05's solution with the last warp written as it was before Volta,
// through a `volatile` pointer with no __syncwarp(), relying on the 32 lanes
// of a warp executing each instruction together. Independent thread
// scheduling lets a lane read a neighbour's element before the neighbour has
// written it: a race that gives the right sum on almost every run, so the
// ordinary grading test passes it. compute-sanitizer's racecheck reports it.
#include "tracks/reduction/kernels.h"

namespace {

constexpr unsigned int kThreads = 256;

__device__ long long last_warp_sum_in_lockstep(long long* sum, unsigned int tid) {
    volatile long long* s = sum;
    s[tid] += s[tid + 32];
    s[tid] += s[tid + 16];
    s[tid] += s[tid + 8];
    s[tid] += s[tid + 4];
    s[tid] += s[tid + 2];
    s[tid] += s[tid + 1];
    return s[tid];
}

template <typename T>
__global__ void reduce_last_warp_in_lockstep(const T* __restrict__ in, long long* __restrict__ partial, std::size_t n) {
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
        const long long total = last_warp_sum_in_lockstep(sum, tid);
        if (tid == 0) partial[blockIdx.x] = total;
    }
}

}  // namespace

void reduction::step05_unroll_last_warp(const int* in, std::size_t n, long long* sum, long long* scratch,
                                        cudaStream_t stream) {
    reduce_in_passes(
        in, n, sum, scratch, stream,
        [](auto* input, std::size_t count, long long* output, unsigned int blocks, cudaStream_t s) {
            reduce_last_warp_in_lockstep<<<blocks, kThreads, 0, s>>>(input, output, count);
            CUDA_CHECK_LAUNCH();
        },
        [](std::size_t count) { return blocks_covering(count, 2 * kThreads); });
}
