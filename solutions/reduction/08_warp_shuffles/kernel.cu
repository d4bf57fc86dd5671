// Reduction, step 08: warp shuffles (beyond Harris's paper).
//
// Since Kepler a warp can exchange registers directly: __shfl_down_sync(mask,
// v, k) hands each lane the value of v held by the lane k places higher. Five
// shuffles (16, 8, 4, 2, 1) sum a warp's 32 values with no shared memory, no
// barrier and no bank to conflict over. The block's tree becomes: each warp
// sums its own values by shuffles, lane 0 of each warp parks its result in
// shared memory (8 values for 256 threads, not 256), one barrier, and warp 0
// sums those 8 the same way. The "_sync" and its mask also make this the
// sanctioned form of warp-synchronous code on Volta and later: the hardware
// synchronises the named lanes for the exchange.
#include "tracks/reduction/kernels.h"

#include "course/launch_helpers.h"

#include <algorithm>

namespace {

constexpr unsigned int kThreads = 256;
constexpr unsigned int kWarpSize = 32;
constexpr unsigned int kFullWarp = 0xffffffffu;

__device__ long long warp_sum(long long v) {
#pragma unroll
    for (unsigned int offset = kWarpSize / 2; offset > 0; offset >>= 1) v += __shfl_down_sync(kFullWarp, v, offset);
    return v;  // complete in lane 0
}

template <unsigned int kBlockSize, typename T>
__global__ void reduce_warp_shuffles(const T* __restrict__ in, long long* __restrict__ partial, std::size_t n) {
    static_assert(kBlockSize % kWarpSize == 0 && kBlockSize / kWarpSize <= kWarpSize,
                  "kBlockSize must be a whole number of warps, at most 32 of them (one per lane of warp 0)");
    __shared__ long long warp_totals[kBlockSize / kWarpSize];
    const unsigned int tid = threadIdx.x;
    const unsigned int lane = tid % kWarpSize, warp = tid / kWarpSize;

    const std::size_t grid_width = 2 * static_cast<std::size_t>(kBlockSize) * gridDim.x;
    long long v = 0;
    for (std::size_t i = blockIdx.x * (2 * static_cast<std::size_t>(kBlockSize)) + tid; i < n; i += grid_width) {
        v += in[i];
        if (i + kBlockSize < n) v += in[i + kBlockSize];
    }

    v = warp_sum(v);
    if (lane == 0) warp_totals[warp] = v;
    __syncthreads();
    if (warp == 0) {
        v = lane < kBlockSize / kWarpSize ? warp_totals[lane] : 0;
        v = warp_sum(v);
        if (lane == 0) partial[blockIdx.x] = v;
    }
}

}  // namespace

void reduction::step08_warp_shuffles(const int* in, std::size_t n, long long* sum, long long* scratch,
                                     cudaStream_t stream) {
    // One wave: as many blocks of the first pass's kernel as the GPU holds at
    // once (course/launch_helpers.h, met in basics 02), asked once per program.
    static const std::size_t one_wave = course::resident_blocks(reduce_warp_shuffles<kThreads, int>, kThreads);
    reduce_in_passes(
        in, n, sum, scratch, stream,
        [](auto* input, std::size_t count, long long* output, unsigned int blocks, cudaStream_t s) {
            reduce_warp_shuffles<kThreads><<<blocks, kThreads, 0, s>>>(input, output, count);
            CUDA_CHECK_LAUNCH();
        },
        [](std::size_t count) { return std::min(blocks_covering(count, 2 * kThreads), one_wave); });
}
