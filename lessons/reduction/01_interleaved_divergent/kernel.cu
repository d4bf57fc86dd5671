// Reduction, step 01: interleaved addressing with a divergent branch.
//                                                          (your starting point)
// Write the block's tree sum in the kernel below; README.md in this folder
// explains it. The launcher is complete: it runs one pass per level until
// a single sum is left (reduce_in_passes in common/tracks/reduction/kernels.h).
// Build and run: meson compile -C build reduction-01 && build/lessons/reduction-01
#include "tracks/reduction/kernels.h"

namespace {

constexpr unsigned int kThreads = 256;
static_assert((kThreads & (kThreads - 1)) == 0,
              "the tree halves the block each round: kThreads must be a power of two");

// T is int for the first pass over the input and long long for the passes
// over partial sums.
template <typename T>
__global__ void reduce_interleaved_divergent(const T* __restrict__ in, long long* __restrict__ partial, std::size_t n) {
    __shared__ long long sum[kThreads];
    const unsigned int tid = threadIdx.x;
    const std::size_t i = blockIdx.x * static_cast<std::size_t>(kThreads) + tid;
    sum[tid] = i < n ? static_cast<long long>(in[i]) : 0;  // past the end: add nothing
    __syncthreads();

    // TODO(step 01): the tree. For s = 1, 2, 4, ... up to kThreads / 2: every
    // thread whose tid is a multiple of 2 * s adds sum[tid + s] into sum[tid].
    // All threads must reach a __syncthreads() after each round (outside the
    // if), since the next round reads what this one wrote.

    // TODO(step 01): thread 0 writes the block's sum, sum[0], to partial[blockIdx.x].
}

}  // namespace

void reduction::step01_interleaved_divergent(const int* in, std::size_t n, long long* sum, long long* scratch,
                                             cudaStream_t stream) {
    reduce_in_passes(
        in, n, sum, scratch, stream,
        [](auto* input, std::size_t count, long long* output, unsigned int blocks, cudaStream_t s) {
            reduce_interleaved_divergent<<<blocks, kThreads, 0, s>>>(input, output, count);
            CUDA_CHECK_LAUNCH();
        },
        [](std::size_t count) { return blocks_covering(count, kThreads); });
}
