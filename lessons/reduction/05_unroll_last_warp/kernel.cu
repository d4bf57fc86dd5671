// Reduction, step 05: the last warp unrolled.
//                                                          (your starting point)
// This is step 04's solution, its kernel and launcher renamed to this
// step's, with TODO(step 05) markers where this step changes it; README.md
// in this folder explains the change. Build and run:
// meson compile -C build reduction-05 && build/lessons/reduction-05
#include "tracks/reduction/kernels.h"

namespace {

constexpr unsigned int kThreads = 256;
static_assert((kThreads & (kThreads - 1)) == 0,
              "the tree halves the block each round: kThreads must be a power of two");

template <typename T>
__global__ void reduce_unroll_last_warp(const T* __restrict__ in, long long* __restrict__ partial, std::size_t n) {
    __shared__ long long sum[kThreads];
    const unsigned int tid = threadIdx.x;
    const std::size_t i = blockIdx.x * (2 * static_cast<std::size_t>(kThreads)) + tid;
    long long v = i < n ? static_cast<long long>(in[i]) : 0;
    if (i + kThreads < n) v += in[i + kThreads];
    sum[tid] = v;
    __syncthreads();

    // TODO(step 05): this loop now stops at s = 64 (step 04's ran down to
    // s = 1). Let warp 0 (tid < 32) finish rounds 32, 16, 8, 4, 2, 1 unrolled,
    // synchronising only the warp: keep the running value in a register, and
    // put __syncwarp() before each write to sum[tid] and between that write
    // and the read of sum[tid + offset]. (README.md explains why Harris's
    // volatile, barrier-free form is unsafe today.) Lane 0's running value is
    // then the block's total: store it, not sum[0], in partial[blockIdx.x]
    // below. Until then, the last six rounds are missing and the check fails.
    for (unsigned int s = kThreads / 2; s > 32; s >>= 1) {
        if (tid < s) sum[tid] += sum[tid + s];
        __syncthreads();
    }
    if (tid == 0) partial[blockIdx.x] = sum[0];
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
