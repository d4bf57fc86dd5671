// Reduction, step 06: the tree completely unrolled, with the block size as a
// template parameter.
//
// With a block size known only at run time (Harris's kernel), the loop over s
// costs a compare, a shift and a branch per round. If the block size is known
// when the kernel is compiled, every round can be written out: with `if
// constexpr` each round exists only when the block is big enough for it, and
// the compiler sees constant strides and offsets everywhere. A template
// parameter gives that knowledge while keeping one source for every block
// size: the launcher picks the instance (here 256; Harris's launcher switched
// over all powers of two up to 512). Step 05's kThreads was already a
// constant, so the compiler had unrolled its loop: the two steps execute the
// same number of instructions (README.md).
#include "tracks/reduction/kernels.h"

namespace {

constexpr unsigned int kThreads = 256;

__device__ long long last_warp_sum(long long* sum, unsigned int tid) {
    long long v = sum[tid] + sum[tid + 32];
#pragma unroll
    for (unsigned int offset = 16; offset > 0; offset >>= 1) {
        __syncwarp();
        sum[tid] = v;
        __syncwarp();
        v += sum[tid + offset];
    }
    return v;
}

template <unsigned int kBlockSize, typename T>
__global__ void reduce_complete_unroll(const T* __restrict__ in, long long* __restrict__ partial, std::size_t n) {
    static_assert(kBlockSize >= 64 && kBlockSize <= 1024 && (kBlockSize & (kBlockSize - 1)) == 0,
                  "kBlockSize must be a power of two from 64 to 1024");
    __shared__ long long sum[kBlockSize];
    const unsigned int tid = threadIdx.x;
    const std::size_t i = blockIdx.x * (2 * static_cast<std::size_t>(kBlockSize)) + tid;
    long long v = i < n ? static_cast<long long>(in[i]) : 0;
    if (i + kBlockSize < n) v += in[i + kBlockSize];
    sum[tid] = v;
    __syncthreads();

    if constexpr (kBlockSize >= 1024) {
        if (tid < 512) sum[tid] += sum[tid + 512];
        __syncthreads();
    }
    if constexpr (kBlockSize >= 512) {
        if (tid < 256) sum[tid] += sum[tid + 256];
        __syncthreads();
    }
    if constexpr (kBlockSize >= 256) {
        if (tid < 128) sum[tid] += sum[tid + 128];
        __syncthreads();
    }
    if constexpr (kBlockSize >= 128) {
        if (tid < 64) sum[tid] += sum[tid + 64];
        __syncthreads();
    }
    if (tid < 32) {
        const long long total = last_warp_sum(sum, tid);
        if (tid == 0) partial[blockIdx.x] = total;
    }
}

}  // namespace

void reduction::step06_complete_unroll(const int* in, std::size_t n, long long* sum, long long* scratch,
                                       cudaStream_t stream) {
    reduce_in_passes(
        in, n, sum, scratch, stream,
        [](auto* input, std::size_t count, long long* output, unsigned int blocks, cudaStream_t s) {
            reduce_complete_unroll<kThreads><<<blocks, kThreads, 0, s>>>(input, output, count);
            CUDA_CHECK_LAUNCH();
        },
        [](std::size_t count) { return blocks_covering(count, 2 * kThreads); });
}
