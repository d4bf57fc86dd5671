// Convolution, step 07: strict coalescing of the tile and its apron.
//
// Step 06 with the tile loaded as aligned 32-bit words instead of shifted
// bytes. The tile now starts one whole word (4 pixels) left of the block's
// first pixel instead of 2 pixels, and ends one word right of its last: 2
// bytes of each apron word are not needed, and in exchange every load is a
// 4-byte word at a 4-byte boundary. Per tile row:
//
//   [ apron word | 4*blockDim.x bytes of body, word tx loaded by thread tx | apron word ]
//
// The body is read by consecutive threads from consecutive aligned words:
// one row of a 16-wide block is 64 contiguous bytes starting on a 64-byte
// boundary, the pattern the 8800 GT's coalescing rules asked for. The two
// apron words are read by threads 0 and 1. One 32-bit load replaces four
// byte loads. (The talk: 3.6 ms to 3.4 ms; memory only 1.6 ms to 1.2 ms.)
//
// A 4-byte load needs 4-byte aligned rows (rows_aligned); for other pitches
// (--pitch-pad 1) the same words are assembled from single bytes.
#include "tracks/convolution/device.cuh"
#include "tracks/convolution/kernels.h"

#include "course/check.h"

namespace {

using convolution::kFilterSize;
using convolution::kRadius;
namespace device = convolution::device;

constexpr int kPixelsPerThread = 4;
constexpr int kApron = 4;                                 // bytes of apron loaded on each side: one word
constexpr int kColumns = kPixelsPerThread + 2 * kRadius;  // the 8 columns under a thread's four windows

template <bool kMemoryOnly, bool kAligned>
__global__ void strict_coalescing(const convolution::Params p) {
    extern __shared__ __align__(16) std::uint8_t tile[];
    const int tile_width = kPixelsPerThread * blockDim.x + 2 * kApron;  // a multiple of 4 bytes
    const int tile_height = blockDim.y + 2 * kRadius;
    const int x0 = kPixelsPerThread * blockIdx.x * blockDim.x;
    const int y0 = blockIdx.y * blockDim.y;

    // Tile byte (c, r) is image pixel (x0 - 4 + c, y0 - 2 + r).
    for (int r = threadIdx.y; r < tile_height; r += blockDim.y) {
        const std::uint8_t* row = device::clamped_row(p.in, y0 - kRadius + r, p.height, p.pitch);
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

void convolution::step07_strict_coalescing(const Params& p, cudaStream_t stream) {
    using Kernel = void (*)(Params);
    const Kernel kernels[2][2] = {{strict_coalescing<false, false>, strict_coalescing<false, true>},
                                  {strict_coalescing<true, false>, strict_coalescing<true, true>}};
    const std::size_t shared =
        static_cast<std::size_t>(kPixelsPerThread * p.block.x + 2 * kApron) * (p.block.y + 2 * kRadius);
    kernels[p.memory_only][rows_aligned(p, 4)]<<<grid_for(p, kPixelsPerThread), p.block, shared, stream>>>(p);
    CUDA_CHECK_LAUNCH();
}
