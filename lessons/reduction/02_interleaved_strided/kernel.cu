// Reduction, step 02: interleaved addressing with a strided index.
//                                                          (your starting point)
// This is step 01's solution, its kernel and launcher renamed to this
// step's, with the line this step changes taken out (TODO(step 02)).
// README.md in this folder explains the change. Build and run:
// meson compile -C build reduction-02 && build/lessons/reduction-02
#include "tracks/reduction/kernels.h"

namespace {

constexpr unsigned int kThreads = 256;
static_assert((kThreads & (kThreads - 1)) == 0,
              "the tree halves the block each round: kThreads must be a power of two");

// T is int for the first pass over the input and long long for the passes
// over partial sums.
template <typename T>
__global__ void reduce_interleaved_strided(const T* __restrict__ in, long long* __restrict__ partial, std::size_t n) {
    __shared__ long long sum[kThreads];
    const unsigned int tid = threadIdx.x;
    const std::size_t i = blockIdx.x * static_cast<std::size_t>(kThreads) + tid;
    sum[tid] = i < n ? static_cast<long long>(in[i]) : 0;  // past the end: add nothing
    __syncthreads();

    for (unsigned int s = 1; s < kThreads; s *= 2) {
        // TODO(step 02): step 01 did `if (tid % (2 * s) == 0) sum[tid] += sum[tid + s];`
        // here. Give round s's work to the first threads instead: thread tid adds
        // sum[index + s] into sum[index], with index = 2 * s * tid, when
        // index < kThreads. No %, and whole warps either work or idle.
        __syncthreads();  // every round reads what the previous round wrote
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
