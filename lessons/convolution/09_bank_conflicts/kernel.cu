// Convolution, step 09: bank conflicts resolved.
//                                                           (your starting point)
//
// This file is the solution of step 08, renamed to step 09's launcher: it
// compiles, runs and is correct, at step 08's speed.
// Change it where the TODO(step 09) markers are.
//
// Keep the 16-byte loads and stores, but let each thread compute words of
// 4 pixels that its warp's threads read side by side, and put the results
// through shared memory for the 16-byte store.
//
// README.md in this folder explains the step; run your kernel with
// `meson compile -C build convolution-09 && build/lessons/convolution-09`.
#include "tracks/convolution/device.cuh"
#include "tracks/convolution/kernels.h"

#include "course/check.h"

namespace {

using convolution::kFilterSize;
using convolution::kRadius;
namespace device = convolution::device;

constexpr int kPixelsPerThread = 16;
constexpr int kApron = 16;                                // one 16-byte word on each side
constexpr int kColumns = kPixelsPerThread + 2 * kRadius;  // the 20 columns under a thread's 16 windows

template <bool kMemoryOnly, bool kAligned>
__global__ void conflict_free(const convolution::Params p) {
    // TODO(step 09): after the tile, a staging area in the same dynamic shared
    // memory for the results: blockDim.y rows of 4*blockDim.x 32-bit words.
    extern __shared__ __align__(16) std::uint8_t tile[];
    // TODO(step 09): pad the tile's rows: a 16-wide block's warp reads two tile
    // rows at once, and rows of 72 words start only 8 banks apart. Make the
    // distance between rows 4 * convolution::conflict_free_stride(tile words,
    // blockDim.x) bytes (80 words for 16-wide blocks), and the staging rows
    // conflict_free_stride(4*blockDim.x, blockDim.x) words.
    const int tile_width = kPixelsPerThread * blockDim.x + 2 * kApron;  // a multiple of 16 bytes
    const int tile_height = blockDim.y + 2 * kRadius;
    const int x0 = kPixelsPerThread * blockIdx.x * blockDim.x;
    const int y0 = blockIdx.y * blockDim.y;

    // Tile byte (c, r) is image pixel (x0 - 16 + c, y0 - 2 + r).
    for (int r = threadIdx.y; r < tile_height; r += blockDim.y) {
        const std::uint8_t* row = device::clamped_row(p.in, y0 - kRadius + r, p.height, p.pitch);
        auto* tile_row = reinterpret_cast<uint4*>(tile + r * tile_width);
        tile_row[1 + threadIdx.x] = device::load_word<kAligned, uint4>(row, x0 + 16 * threadIdx.x, p.pitch);
        for (int side = threadIdx.x; side < 2; side += blockDim.x) {
            const int word = side == 0 ? 0 : blockDim.x + 1;
            tile_row[word] = device::load_word<kAligned, uint4>(row, x0 - kApron + 16 * word, p.pitch);
        }
    }
    __syncthreads();

    // TODO(step 09): change which pixels a thread computes. A block row's output
    // is 4*blockDim.x words of 4 pixels; thread tx computes words tx,
    // tx + blockDim.x, tx + 2*blockDim.x, tx + 3*blockDim.x, so the warp's
    // threads read neighbouring words of the tile: no bank conflicts. For word
    // w (pixels x0 + 4w .. + 3) the window starts at tile column 4w + 14; the
    // 4 sums and the byte reads as in step 07. Write each result word into
    // the staging area; __syncthreads(); then each thread reads back its 16
    // consecutive bytes (words 4tx .. 4tx + 3 of its staging row) as a uint4
    // and stores it with one 16-byte store. With a second barrier, no thread
    // may return before it.
    // TODO(step 09): the frame. The code below tests every pixel
    // (is_interior); test the whole block first instead, the same test for
    // every thread of the block: only blocks that touch the frame need the
    // per-pixel test, the others (nearly all) can skip it.
    const int x = x0 + kPixelsPerThread * threadIdx.x, y = y0 + threadIdx.y;
    if (x >= p.width || y >= p.height) return;
    // Image pixel x - 2 is tile column 16*threadIdx.x + 14.
    const std::uint8_t* window = &tile[threadIdx.y * tile_width + kPixelsPerThread * threadIdx.x + kApron - kRadius];
    int sum[kPixelsPerThread] = {};
    if (!kMemoryOnly) {
#pragma unroll
        for (int dy = 0; dy < kFilterSize; ++dy) {
            int pixels[kColumns];
#pragma unroll
            for (int c = 0; c < kColumns; ++c) pixels[c] = window[dy * tile_width + c];  // 4-way bank conflicts
#pragma unroll
            for (int k = 0; k < kPixelsPerThread; ++k)
#pragma unroll
                for (int t = 0; t < kFilterSize; ++t) sum[k] += p.filter.weights[dy * kFilterSize + t] * pixels[k + t];
        }
    }
    // The 16 input pixels themselves, for the frame and for memory only.
    const uint4 centre = *reinterpret_cast<const uint4*>(&window[kRadius * tile_width + kRadius]);
    uint4 word = centre;
    if (!kMemoryOnly) {
#pragma unroll
        for (int k = 0; k < kPixelsPerThread; ++k)
            if (device::is_interior(x + k, y, p.width, p.height))
                device::set_byte(word, k, convolution::scale_and_clamp(sum[k], p.filter.scale));
    }
    device::store_word<kAligned>(p.out + static_cast<std::size_t>(y) * p.pitch, x, p.width, word);
}

}  // namespace

void convolution::step09_bank_conflicts(const Params& p, cudaStream_t stream) {
    using Kernel = void (*)(Params);
    const Kernel kernels[2][2] = {{conflict_free<false, false>, conflict_free<false, true>},
                                  {conflict_free<true, false>, conflict_free<true, true>}};
    // TODO(step 09): the padded tile, and the staging area after it.
    const std::size_t shared =
        static_cast<std::size_t>(kPixelsPerThread * p.block.x + 2 * kApron) * (p.block.y + 2 * kRadius);
    kernels[p.memory_only][rows_aligned(p, 16)]<<<grid_for(p, kPixelsPerThread), p.block, shared, stream>>>(p);
    CUDA_CHECK_LAUNCH();
}
