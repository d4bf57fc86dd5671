// Reduction, step 02: interleaved addressing with a strided index.
//
// The same tree as step 01, but round s now gives its work to the *first*
// threads of the block: thread t adds element 2*s*t + s into 2*s*t. The
// threads doing work are contiguous, so whole warps either work or retire,
// and the % is gone.
//
// The new problem: shared memory is split into 32 banks of 4 bytes, and a
// warp's accesses to different addresses in the same bank are served one
// after another. Our partial sums are 8 bytes wide; in round s thread t
// touches element 2*s*t, so neighbouring threads are 16*s bytes apart and
// many of them land in the same bank: a bank conflict that grows with s.
#include "tracks/reduction/kernels.h"

namespace {

constexpr unsigned int kThreads = 256;
static_assert((kThreads & (kThreads - 1)) == 0,
              "the tree halves the block each round: kThreads must be a power of two");

template <typename T>
__global__ void reduce_interleaved_strided(const T* __restrict__ in, long long* __restrict__ partial, std::size_t n) {
    __shared__ long long sum[kThreads];
    const unsigned int tid = threadIdx.x;
    const std::size_t i = blockIdx.x * static_cast<std::size_t>(kThreads) + tid;
    sum[tid] = i < n ? static_cast<long long>(in[i]) : 0;
    __syncthreads();

    for (unsigned int s = 1; s < kThreads; s *= 2) {
        const unsigned int index = 2 * s * tid;
        if (index < kThreads) sum[index] += sum[index + s];
        __syncthreads();
    }
    if (tid == 0) partial[blockIdx.x] = sum[0];
}

}  // namespace

void reduction::step02_interleaved_strided(const int* in, std::size_t n, long long* sum, long long* scratch,
                                           cudaStream_t stream) {
    reduce_in_passes(
        in, n, sum, scratch, stream,
        [](auto* input, std::size_t count, long long* output, unsigned int blocks, cudaStream_t s) {
            reduce_interleaved_strided<<<blocks, kThreads, 0, s>>>(input, output, count);
            CUDA_CHECK_LAUNCH();
        },
        [](std::size_t count) { return blocks_covering(count, kThreads); });
}
