// Reduction, step 04: the first add during the global load.
//
// In step 03 half the threads only loaded a value. Now each block covers
// twice as many elements (2 x 256) and every thread loads two values, 256
// apart (so each of the two loads is still coalesced), and adds them before
// the tree starts. Half as many blocks for the same data, and the first
// round of the tree happens in registers.
#include "tracks/reduction/kernels.h"

namespace {

constexpr unsigned int kThreads = 256;
static_assert((kThreads & (kThreads - 1)) == 0,
              "the tree halves the block each round: kThreads must be a power of two");

template <typename T>
__global__ void reduce_first_add_on_load(const T* __restrict__ in, long long* __restrict__ partial, std::size_t n) {
    __shared__ long long sum[kThreads];
    const unsigned int tid = threadIdx.x;
    const std::size_t i = blockIdx.x * (2 * static_cast<std::size_t>(kThreads)) + tid;
    long long v = i < n ? static_cast<long long>(in[i]) : 0;
    if (i + kThreads < n) v += in[i + kThreads];
    sum[tid] = v;
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
        [](std::size_t count) { return blocks_covering(count, 2 * kThreads); });
}
