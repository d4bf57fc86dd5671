// Reduction, step 01: interleaved addressing with a divergent branch.
//
// Harris's first kernel. Each block loads one value per thread into shared
// memory and sums them as a tree: in round s (1, 2, 4, ...), every thread
// whose index is a multiple of 2s adds the value s places to its right. After
// log2(256) = 8 rounds, element 0 holds the block's sum, which thread 0 writes
// out as one partial sum; passes repeat over the partial sums until one is
// left (reduce_in_passes in tracks/reduction/kernels.h).
//
// What is slow about it: `tid % (2 * s) == 0` picks threads that are spread
// across every warp (in round 1, the even threads of each warp), so through
// round 16 every warp is busy while most of its threads sit idle: the warp
// diverges. On the G80 the % was an integer division too; here the loop is
// unrolled, 2 * s is a constant power of two, and % becomes a bitwise AND.
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

    for (unsigned int s = 1; s < kThreads; s *= 2) {
        if (tid % (2 * s) == 0) sum[tid] += sum[tid + s];
        __syncthreads();  // every round reads what the previous round wrote
    }
    if (tid == 0) partial[blockIdx.x] = sum[0];
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
