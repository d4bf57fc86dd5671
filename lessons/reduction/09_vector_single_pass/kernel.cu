// Reduction, step 09: 16-byte loads and a single pass.
//                                                          (your starting point)
// This is step 08's solution, its kernel and launcher renamed to this
// step's, with TODO(step 09) markers where this step changes it; README.md
// in this folder explains the change. Build and run:
// meson compile -C build reduction-09 && build/lessons/reduction-09
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
__global__ void reduce_single_pass(const T* __restrict__ in, long long* __restrict__ partial, std::size_t n) {
    static_assert(kBlockSize % kWarpSize == 0 && kBlockSize / kWarpSize <= kWarpSize,
                  "kBlockSize must be a whole number of warps, at most 32 of them (one per lane of warp 0)");
    __shared__ long long warp_totals[kBlockSize / kWarpSize];
    const unsigned int tid = threadIdx.x;
    const unsigned int lane = tid % kWarpSize, warp = tid / kWarpSize;

    // TODO(step 09): read the input as int4 (four ints per load), with several
    // independent loads in flight per thread before adding: ints one at a time
    // up to the first 16-byte boundary, int4s after it, the last 0-3 ints one
    // at a time.
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
        // TODO(step 09): finish the whole sum in this launch: write the block's
        // partial, __threadfence(), count finished blocks with atomicAdd on a
        // counter in scratch (it starts at zero), and let the last block sum all
        // partials, write *sum and reset the counter to zero.
        if (lane == 0) partial[blockIdx.x] = v;
    }
}

}  // namespace

void reduction::step09_vector_single_pass(const int* in, std::size_t n, long long* sum, long long* scratch,
                                          cudaStream_t stream) {
    // One wave: as many blocks of the first pass's kernel as the GPU holds at
    // once (course/launch_helpers.h, met in basics 02), asked once per program.
    static const std::size_t one_wave = course::resident_blocks(reduce_single_pass<kThreads, int>, kThreads);
    // TODO(step 09): one launch instead of reduce_in_passes.
    reduce_in_passes(
        in, n, sum, scratch, stream,
        [](auto* input, std::size_t count, long long* output, unsigned int blocks, cudaStream_t s) {
            reduce_single_pass<kThreads><<<blocks, kThreads, 0, s>>>(input, output, count);
            CUDA_CHECK_LAUNCH();
        },
        [](std::size_t count) { return std::min(blocks_covering(count, 2 * kThreads), one_wave); });
}
