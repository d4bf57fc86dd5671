// Reduction, step 04: the first add during the global load.
//                                                          (your starting point)
// This is step 03's solution, its kernel and launcher renamed to this
// step's, with TODO(step 04) markers where this step changes it; README.md
// in this folder explains the change. Build and run:
// meson compile -C build reduction-04 && build/lessons/reduction-04
#include "tracks/reduction/kernels.h"

namespace {

constexpr unsigned int kThreads = 256;
static_assert((kThreads & (kThreads - 1)) == 0,
              "the tree halves the block each round: kThreads must be a power of two");

template <typename T>
__global__ void reduce_first_add_on_load(const T* __restrict__ in, long long* __restrict__ partial, std::size_t n) {
    __shared__ long long sum[kThreads];
    const unsigned int tid = threadIdx.x;
    // TODO(step 04): let each block cover 2 * kThreads elements: i starts at
    // blockIdx.x * 2 * kThreads + tid, and the thread adds in[i] and
    // in[i + kThreads] (each only if inside n) before storing into sum[tid].
    // Then halve the grid in the launcher below.
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

void reduction::step04_first_add_on_load(const int* in, std::size_t n, long long* sum, long long* scratch,
                                         cudaStream_t stream) {
    reduce_in_passes(
        in, n, sum, scratch, stream,
        [](auto* input, std::size_t count, long long* output, unsigned int blocks, cudaStream_t s) {
            reduce_first_add_on_load<<<blocks, kThreads, 0, s>>>(input, output, count);
            CUDA_CHECK_LAUNCH();
        },
        // TODO(step 04): each block now covers 2 * kThreads values.
        [](std::size_t count) { return blocks_covering(count, kThreads); });
}
