// Reduction, step 03: sequential addressing.
//
// Turn the tree around: in the first round the first half of the block adds
// the second half (thread t adds element t + 128 into t), then the first
// quarter adds the second quarter, and so on. The working threads are still
// contiguous (no divergence inside busy warps), and now a warp's 32 threads
// touch 32 consecutive elements: consecutive addresses spread over all the
// banks, so no bank conflicts.
//
// What is still wasteful: half of the threads never add anything; they only
// load one value and wait.
#include "tracks/reduction/kernels.h"

namespace {

constexpr unsigned int kThreads = 256;
static_assert((kThreads & (kThreads - 1)) == 0,
              "the tree halves the block each round: kThreads must be a power of two");

template <typename T>
__global__ void reduce_sequential(const T* __restrict__ in, long long* __restrict__ partial, std::size_t n) {
    __shared__ long long sum[kThreads];
    const unsigned int tid = threadIdx.x;
    const std::size_t i = blockIdx.x * static_cast<std::size_t>(kThreads) + tid;
    sum[tid] = i < n ? static_cast<long long>(in[i]) : 0;
    __syncthreads();

    for (unsigned int s = kThreads / 2; s > 0; s >>= 1) {
        if (tid < s) sum[tid] += sum[tid + s];
        __syncthreads();
    }
    if (tid == 0) partial[blockIdx.x] = sum[0];
}

}  // namespace

void reduction::step03_sequential(const int* in, std::size_t n, long long* sum, long long* scratch,
                                  cudaStream_t stream) {
    reduce_in_passes(
        in, n, sum, scratch, stream,
        [](auto* input, std::size_t count, long long* output, unsigned int blocks, cudaStream_t s) {
            reduce_sequential<<<blocks, kThreads, 0, s>>>(input, output, count);
            CUDA_CHECK_LAUNCH();
        },
        [](std::size_t count) { return blocks_covering(count, kThreads); });
}
