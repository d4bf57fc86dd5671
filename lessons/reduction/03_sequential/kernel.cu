// Reduction, step 03: sequential addressing.
//                                                          (your starting point)
// This is step 02's solution, its kernel and launcher renamed to this
// step's, with TODO(step 03) markers where this step changes it; README.md
// in this folder explains the change. Build and run:
// meson compile -C build reduction-03 && build/lessons/reduction-03
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

    // TODO(step 03): the tree, reversed. Step 02's loop was
    //     for (s = 1; s < kThreads; s *= 2) { index = 2 * s * tid; if (index < kThreads)
    //         sum[index] += sum[index + s]; __syncthreads(); }
    // Write it the other way round: s starts at kThreads / 2 and halves each
    // round, thread tid < s adds sum[tid + s] into sum[tid], and a
    // __syncthreads() ends each round. Consecutive threads then touch
    // consecutive elements: no bank conflicts. (Until then, sum[0] is thread
    // 0's value alone, and the check fails.)
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
