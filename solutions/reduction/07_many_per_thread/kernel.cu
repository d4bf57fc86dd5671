// Reduction, step 07: many elements per thread.
//
// Up to step 06 the grid grows with n: from step 04 on, one block per 512
// values, each thread adding two of them before the tree. The tree, its
// barriers and the store of a partial sum are paid again for every 512 values.
// Now the grid is at most one wave (as many blocks as the GPU holds at once)
// and each thread first walks the input with a grid-stride loop, adding into
// a register; only then does the block's tree run, once. Harris: "algorithm
// cascading", many sequential adds per thread and a tree only at the end,
// which also hides memory latency (each thread has loads in flight back to
// back).
#include "tracks/reduction/kernels.h"

#include "course/launch_helpers.h"

#include <algorithm>

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
__global__ void reduce_many_per_thread(const T* __restrict__ in, long long* __restrict__ partial, std::size_t n) {
    static_assert(kBlockSize >= 64 && kBlockSize <= 1024 && (kBlockSize & (kBlockSize - 1)) == 0,
                  "kBlockSize must be a power of two from 64 to 1024");
    __shared__ long long sum[kBlockSize];
    const unsigned int tid = threadIdx.x;
    // Each trip covers two block-widths, as in step 04, then jumps a whole grid.
    const std::size_t grid_width = 2 * static_cast<std::size_t>(kBlockSize) * gridDim.x;
    long long v = 0;
    for (std::size_t i = blockIdx.x * (2 * static_cast<std::size_t>(kBlockSize)) + tid; i < n; i += grid_width) {
        v += in[i];
        if (i + kBlockSize < n) v += in[i + kBlockSize];
    }
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

void reduction::step07_many_per_thread(const int* in, std::size_t n, long long* sum, long long* scratch,
                                       cudaStream_t stream) {
    // One wave: as many blocks of the first pass's kernel as the GPU holds at
    // once (course/launch_helpers.h, met in basics 02), asked once per program.
    static const std::size_t one_wave = course::resident_blocks(reduce_many_per_thread<kThreads, int>, kThreads);
    reduce_in_passes(
        in, n, sum, scratch, stream,
        [](auto* input, std::size_t count, long long* output, unsigned int blocks, cudaStream_t s) {
            reduce_many_per_thread<kThreads><<<blocks, kThreads, 0, s>>>(input, output, count);
            CUDA_CHECK_LAUNCH();
        },
        [](std::size_t count) { return std::min(blocks_covering(count, 2 * kThreads), one_wave); });
}
