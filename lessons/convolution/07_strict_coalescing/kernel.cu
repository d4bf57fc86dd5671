// Convolution, step 07: strict coalescing of the tile and its apron.
//                                                           (your starting point)
//
// This file is the solution of step 06, renamed to step 07's launcher: it
// compiles, runs and is correct, at step 06's speed.
// Change it where the TODO(step 07) markers are.
//
// Load the tile as aligned 32-bit words: a one-word apron on each side, the
// body read by consecutive threads from consecutive words.
//
// README.md in this folder explains the step; run your kernel with
// `meson compile -C build convolution-07 && build/lessons/convolution-07`.
#include "tracks/convolution/device.cuh"
#include "tracks/convolution/kernels.h"

#include "course/check.h"

namespace {

using convolution::kFilterSize;
using convolution::kRadius;
namespace device = convolution::device;

constexpr int kPixelsPerThread = 4;
constexpr int kColumns = kPixelsPerThread + 2 * kRadius;  // the 8 columns under a thread's four windows

template <bool kMemoryOnly, bool kAligned>
__global__ void strict_coalescing(const convolution::Params p) {
    // TODO(step 07): __align__(16) on the tile, so it can be written as words.
    extern __shared__ std::uint8_t tile[];
    // TODO(step 07): an apron of one whole word (4 bytes) on each side instead of
    // 2 bytes: tile width 4*blockDim.x + 8, a multiple of 4; tile byte (c, r)
    // is image pixel (x0 - 4 + c, y0 - 2 + r).
    const int tile_width = kPixelsPerThread * blockDim.x + 2 * kRadius;
    const int tile_height = blockDim.y + 2 * kRadius;
    const int x0 = kPixelsPerThread * blockIdx.x * blockDim.x;  // the block's first output pixel
    const int y0 = blockIdx.y * blockDim.y;

    // TODO(step 07): load the tile as aligned 32-bit words: per tile row, thread
    // tx loads the body word at image x0 + 4*tx into tile word 1 + tx; thread 0
    // the left apron word (image x0 - 4, tile word 0) and thread 1 the right
    // one (image x0 + 4*blockDim.x, tile word blockDim.x + 1); a block 1 thread
    // wide has thread 0 do both. Load with
    // convolution::device::load_word<kAligned, std::uint32_t>(row, x, p.pitch).
    // Tile byte (c, r) is image pixel (x0 - 2 + c, y0 - 2 + r).
    for (int r = threadIdx.y; r < tile_height; r += blockDim.y) {
        const std::uint8_t* row = device::clamped_row(p.in, y0 - kRadius + r, p.height, p.pitch);
        for (int c = kPixelsPerThread * threadIdx.x; c < tile_width; c += kPixelsPerThread * blockDim.x)
            for (int i = 0; i < kPixelsPerThread && c + i < tile_width; ++i)
                tile[r * tile_width + c + i] = device::load_byte(row, x0 - kRadius + c + i, p.pitch);
    }
    __syncthreads();

    const int x = x0 + kPixelsPerThread * threadIdx.x, y = y0 + threadIdx.y;
    if (x >= p.width || y >= p.height) return;
    // The thread's four windows cover tile columns 4*threadIdx.x .. + 7 of
    // tile rows threadIdx.y .. + 4.
    // TODO(step 07): with the wider apron, image pixel x - 2 is tile column
    // 4*threadIdx.x + 2.
    const std::uint8_t* window = &tile[threadIdx.y * tile_width + kPixelsPerThread * threadIdx.x];
    int sum[kPixelsPerThread] = {};
    std::uint32_t word = 0;
    if (!kMemoryOnly) {
#pragma unroll
        for (int dy = 0; dy < kFilterSize; ++dy) {
#pragma unroll
            for (int c = 0; c < kColumns; ++c) {
                const int pixel = window[dy * tile_width + c];
#pragma unroll
                for (int k = 0; k < kPixelsPerThread; ++k)
                    if (c - k >= 0 && c - k < kFilterSize) sum[k] += p.filter.weights[dy * kFilterSize + c - k] * pixel;
            }
        }
    }
#pragma unroll
    for (int k = 0; k < kPixelsPerThread; ++k) {
        std::uint8_t result = window[kRadius * tile_width + kRadius + k];  // the pixel itself: frame, memory only
        if (!kMemoryOnly && device::is_interior(x + k, y, p.width, p.height))
            result = convolution::scale_and_clamp(sum[k], p.filter.scale);
        device::set_byte(word, k, result);
    }
    device::store_word<kAligned>(p.out + static_cast<std::size_t>(y) * p.pitch, x, p.width, word);
}

}  // namespace

void convolution::step07_strict_coalescing(const Params& p, cudaStream_t stream) {
    using Kernel = void (*)(Params);
    const Kernel kernels[2][2] = {{strict_coalescing<false, false>, strict_coalescing<false, true>},
                                  {strict_coalescing<true, false>, strict_coalescing<true, true>}};
    // TODO(step 07): the new tile width.
    const std::size_t shared =
        static_cast<std::size_t>(kPixelsPerThread * p.block.x + 2 * kRadius) * (p.block.y + 2 * kRadius);
    kernels[p.memory_only][rows_aligned(p, 4)]<<<grid_for(p, kPixelsPerThread), p.block, shared, stream>>>(p);
    CUDA_CHECK_LAUNCH();
}
