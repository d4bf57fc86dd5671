// Reduction, step 07: many elements per thread.
//                                                          (your starting point)
// This is step 06's solution, its kernel and launcher renamed to this
// step's, with TODO(step 07) markers where this step changes it; README.md
// in this folder explains the change. Build and run:
// meson compile -C build reduction-07 && build/lessons/reduction-07
#include "tracks/reduction/kernels.h"

// TODO(step 07): done for you: resident_blocks, for the one-wave grid.
#include "course/launch_helpers.h"

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
    // TODO(step 07): a grid-stride loop. Start at the same i, add in[i] and
    // in[i + kBlockSize] (if inside n) into v, then move i forward by the whole
    // grid's width, 2 * kBlockSize * gridDim.x, until i >= n.
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

void reduction::step07_many_per_thread(const int* in, std::size_t n, long long* sum, long long* scratch,
                                       cudaStream_t stream) {
    reduce_in_passes(
        in, n, sum, scratch, stream,
        [](auto* input, std::size_t count, long long* output, unsigned int blocks, cudaStream_t s) {
            reduce_many_per_thread<kThreads><<<blocks, kThreads, 0, s>>>(input, output, count);
            CUDA_CHECK_LAUNCH();
        },
        // TODO(step 07): cap the grid at one wave: as many blocks as the GPU holds
        // at once. course::resident_blocks (course/launch_helpers.h, met in
        // basics 02) asks the driver; ask once, in a static.
        [](std::size_t count) { return blocks_covering(count, 2 * kThreads); });
}
