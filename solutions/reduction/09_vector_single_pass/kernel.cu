// Reduction, step 09: 16-byte loads, and the whole sum in a single launch
// (beyond Harris's paper).
//
// Two changes to step 08.
//
//  1. 16-byte loads. Each thread reads int4s (four ints per load instruction)
//     and keeps several of them in flight before adding any: a reduction does
//     almost no arithmetic, so the only way to go faster is more bytes
//     requested per instruction and per thread. An int4 load must be 16-byte
//     aligned; an input that does not start on a 16-byte boundary is summed
//     one int at a time up to the first boundary (the "head"), in int4s after
//     it, and one at a time again for the last 0 to 3 ints (the "tail").
//
//  2. One pass. Steps 01 to 08 launch a kernel per pass, and the launches and
//     the gaps between them cost microseconds: at 2^22 ints, where a whole
//     sum takes about ten, that is a sizeable part of the time. Here each
//     block writes its partial sum, and the last block to finish (found with
//     an atomic counter) adds up all the partial sums and writes the total.
//     One launch, no second pass.
#include "tracks/reduction/kernels.h"

#include "course/launch_helpers.h"

#include <algorithm>
#include <cstdint>

namespace {

constexpr unsigned int kThreads = 256;
constexpr unsigned int kWarpSize = 32;
constexpr unsigned int kFullWarp = 0xffffffffu;
constexpr unsigned int kLoadsInFlight = 4;  // independent int4 loads per thread per trip

__device__ long long warp_sum(long long v) {
#pragma unroll
    for (unsigned int offset = kWarpSize / 2; offset > 0; offset >>= 1) v += __shfl_down_sync(kFullWarp, v, offset);
    return v;
}

// The block's total, complete in thread 0. `warp_totals` holds one value per warp.
template <unsigned int kBlockSize>
__device__ long long block_sum(long long v, long long* warp_totals) {
    static_assert(kBlockSize % kWarpSize == 0 && kBlockSize / kWarpSize <= kWarpSize,
                  "kBlockSize must be a whole number of warps, at most 32 of them");
    const unsigned int lane = threadIdx.x % kWarpSize, warp = threadIdx.x / kWarpSize;
    v = warp_sum(v);
    if (lane == 0) warp_totals[warp] = v;
    __syncthreads();
    if (warp == 0) v = warp_sum(lane < kBlockSize / kWarpSize ? warp_totals[lane] : 0);
    return v;
}

__device__ long long lanes(int4 x) { return static_cast<long long>(x.x) + x.y + x.z + x.w; }

template <unsigned int kBlockSize>
__global__ void reduce_single_pass(const int* __restrict__ in, std::size_t n, long long* __restrict__ sum,
                                   long long* __restrict__ partials, unsigned int* __restrict__ blocks_done) {
    __shared__ long long warp_totals[kBlockSize / kWarpSize];
    __shared__ bool is_last_block;
    const std::size_t thread = blockIdx.x * static_cast<std::size_t>(kBlockSize) + threadIdx.x;
    const std::size_t threads = static_cast<std::size_t>(gridDim.x) * kBlockSize;

    // Head, 16-byte body, tail.
    const std::size_t ints_past_boundary = (reinterpret_cast<std::uintptr_t>(in) / sizeof(int)) % 4;
    const std::size_t head = std::min<std::size_t>(n, (4 - ints_past_boundary) % 4);
    const std::size_t vectors = (n - head) / 4;
    const auto* body = reinterpret_cast<const int4*>(in + head);
    const std::size_t tail = head + 4 * vectors;

    long long v = 0;
    if (thread < head) v += in[thread];
    std::size_t i = thread;
    for (; i + (kLoadsInFlight - 1) * threads < vectors; i += kLoadsInFlight * threads) {
        int4 x[kLoadsInFlight];
#pragma unroll
        for (unsigned int k = 0; k < kLoadsInFlight; ++k) x[k] = body[i + k * threads];  // all loads first...
#pragma unroll
        for (unsigned int k = 0; k < kLoadsInFlight; ++k) v += lanes(x[k]);  // ...then the adds
    }
    for (; i < vectors; i += threads) v += lanes(body[i]);
    if (tail + thread < n) v += in[tail + thread];

    v = block_sum<kBlockSize>(v, warp_totals);

    // Publish this block's partial sum, then count the block as done. The
    // fence makes the partial visible to every other block before the count
    // can be seen, so the last block reads complete data.
    if (threadIdx.x == 0) {
        partials[blockIdx.x] = v;
        __threadfence();
        is_last_block = atomicAdd(blocks_done, 1u) == gridDim.x - 1;
    }
    __syncthreads();
    if (!is_last_block) return;

    long long total = 0;
    // __ldcg reads through L2, never from this SM's L1, which cannot hold a
    // stale copy anyway since this block never read the partials before.
    for (unsigned int b = threadIdx.x; b < gridDim.x; b += kBlockSize) total += __ldcg(&partials[b]);
    total = block_sum<kBlockSize>(total, warp_totals);
    if (threadIdx.x == 0) {
        *sum = total;
        *blocks_done = 0;  // ready for the next launch (see Launcher in tracks/reduction/kernels.h)
    }
}

}  // namespace

void reduction::step09_vector_single_pass(const int* in, std::size_t n, long long* sum, long long* scratch,
                                          cudaStream_t stream) {
    if (n == 0) throw course::Error("reduction: n must be at least 1");
    // One wave: as many blocks of reduce_single_pass as the GPU holds at
    // once (course/launch_helpers.h, met in basics 02), asked once per program.
    static const std::size_t one_wave = course::resident_blocks(reduce_single_pass<kThreads>, kThreads);
    // One block per 256 int4s at most, one wave at most, and never more
    // partial sums than the scratch holds after its counter.
    const std::size_t wanted = blocks_covering(std::max<std::size_t>(n / 4, 1), kThreads);
    const auto blocks = static_cast<unsigned int>(std::min({wanted, one_wave, scratch_elements(n) - 1}));
    auto* blocks_done = reinterpret_cast<unsigned int*>(scratch);
    reduce_single_pass<kThreads><<<blocks, kThreads, 0, stream>>>(in, n, sum, scratch + 1, blocks_done);
    CUDA_CHECK_LAUNCH();
}
