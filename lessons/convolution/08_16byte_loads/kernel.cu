// Convolution, step 08: 16-byte loads and stores.
//                                                           (your starting point)
//
// This file is the solution of step 07, renamed to step 08's launcher: it
// compiles, runs and is correct, at step 07's speed.
// Change it where the TODO(step 08) markers are.
//
// Load the tile 16 bytes at a time, compute 16 pixels per thread, store
// them with one 16-byte store. Measure it, then read README.md about what
// the computation's shared-memory reads do now.
//
// README.md in this folder explains the step; run your kernel with
// `meson compile -C build convolution-08 && build/lessons/convolution-08`.
#include "tracks/convolution/device.cuh"
#include "tracks/convolution/kernels.h"

#include "course/check.h"

namespace {

using convolution::kFilterSize;
using convolution::kRadius;
namespace device = convolution::device;

// TODO(step 08): 16 pixels per thread, a 16-byte apron on each side (tile
// width 16*blockDim.x + 32), 20 columns under a thread's 16 windows.
constexpr int kPixelsPerThread = 4;
constexpr int kApron = 4;                                 // bytes of apron loaded on each side: one word
constexpr int kColumns = kPixelsPerThread + 2 * kRadius;  // the 8 columns under a thread's four windows

template <bool kMemoryOnly, bool kAligned>
__global__ void wide_loads(const convolution::Params p) {
    extern __shared__ __align__(16) std::uint8_t tile[];
    const int tile_width = kPixelsPerThread * blockDim.x + 2 * kApron;  // a multiple of 4 bytes
    const int tile_height = blockDim.y + 2 * kRadius;
    const int x0 = kPixelsPerThread * blockIdx.x * blockDim.x;
    const int y0 = blockIdx.y * blockDim.y;

    // Tile byte (c, r) is image pixel (x0 - 4 + c, y0 - 2 + r).
    for (int r = threadIdx.y; r < tile_height; r += blockDim.y) {
        const std::uint8_t* row = device::clamped_row(p.in, y0 - kRadius + r, p.height, p.pitch);
        // TODO(step 08): load the tile as 16-byte words (uint4, load_word<kAligned,
        // uint4>): body word tx at image x0 + 16*tx into tile word 1 + tx, the
        // apron words at x0 - 16 and x0 + 16*blockDim.x.
        auto* tile_row = reinterpret_cast<std::uint32_t*>(tile + r * tile_width);
        // The body: word tx of the block's pixels, to tile word 1 + tx.
        tile_row[1 + threadIdx.x] = device::load_word<kAligned, std::uint32_t>(row, x0 + 4 * threadIdx.x, p.pitch);
        // The apron: word 0 (left, by thread 0) and word blockDim.x + 1
        // (right, by thread 1; by thread 0 too if the block is 1 wide).
        for (int side = threadIdx.x; side < 2; side += blockDim.x) {
            const int word = side == 0 ? 0 : blockDim.x + 1;
            tile_row[word] = device::load_word<kAligned, std::uint32_t>(row, x0 - kApron + 4 * word, p.pitch);
        }
    }
    __syncthreads();

    const int x = x0 + kPixelsPerThread * threadIdx.x, y = y0 + threadIdx.y;
    if (x >= p.width || y >= p.height) return;
    // Image pixel x - 2 is tile column 4*threadIdx.x + 2.
    const std::uint8_t* window = &tile[threadIdx.y * tile_width + kPixelsPerThread * threadIdx.x + kApron - kRadius];
    // TODO(step 08): compute 16 pixels: per filter row, read the 20 bytes under
    // the windows into registers, then add each pixel's 5 taps. The centre
    // pixels (frame, memory only) are one uint4 of the tile. Store the 16
    // results with one store_word<kAligned> of a uint4.
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
        std::uint8_t result = window[kRadius * tile_width + kRadius + k];
        if (!kMemoryOnly && device::is_interior(x + k, y, p.width, p.height))
            result = convolution::scale_and_clamp(sum[k], p.filter.scale);
        device::set_byte(word, k, result);
    }
    device::store_word<kAligned>(p.out + static_cast<std::size_t>(y) * p.pitch, x, p.width, word);
}

}  // namespace

void convolution::step08_16byte_loads(const Params& p, cudaStream_t stream) {
    using Kernel = void (*)(Params);
    const Kernel kernels[2][2] = {{wide_loads<false, false>, wide_loads<false, true>},
                                  {wide_loads<true, false>, wide_loads<true, true>}};
    const std::size_t shared =
        static_cast<std::size_t>(kPixelsPerThread * p.block.x + 2 * kApron) * (p.block.y + 2 * kRadius);
    // TODO(step 08): grid_for(p, 16), rows_aligned(p, 16).
    kernels[p.memory_only][rows_aligned(p, 4)]<<<grid_for(p, kPixelsPerThread), p.block, shared, stream>>>(p);
    CUDA_CHECK_LAUNCH();
}
