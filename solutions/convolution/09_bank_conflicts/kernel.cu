// Convolution, step 09: bank conflicts resolved.
//
// Step 08 loads and stores 16 bytes per thread, but its computation reads
// shared memory with the threads of a warp 16 bytes apart: a 4-way bank
// conflict on every read. The fix, as in the talk: keep the 16-byte loads
// and stores, but change which pixels a thread computes. A block row's
// output is 4*blockDim.x words of 4 pixels; thread tx computes words tx,
// tx + blockDim.x, tx + 2*blockDim.x and tx + 3*blockDim.x, so at every step
// the threads of a tile row work on consecutive words and read shared memory
// 4 bytes apart, each in its own bank.
//
// A second, smaller source of conflicts is new since the talk: banks are now
// shared by a whole warp, not a half-warp, and a 16-wide block's warp reads
// two tile rows at once. Rows of 72 words start 8 banks apart, so the two
// halves of the warp meet on 8 banks (2-way). Padding each row to 80 words
// starts the second half 16 banks on (conflict_free_stride), like the talk's
// 17-column tiles for 16-wide blocks.
//
// The results no longer come out as one thread's 16 consecutive bytes, so
// they go through shared memory: each thread writes its four result words
// into a staging tile, and after a barrier reads back its own 16 consecutive
// bytes for one 16-byte store. (The talk: 4.8 ms to 2.9 ms on the 8800 GT,
// where the extra shared memory forced smaller blocks; today's 228 KiB of
// shared memory per multiprocessor leave room.)
//
// The frame: a block whose pixels are all interior (nearly all of them)
// skips the per-pixel test; only blocks at the image's edges put the input
// pixel back where the filter does not apply. The test is the same for every
// thread of a block, so it costs no divergence.
#include "tracks/convolution/device.cuh"
#include "tracks/convolution/kernels.h"

#include "course/check.h"

namespace {

using convolution::kFilterSize;
using convolution::kRadius;
namespace device = convolution::device;

constexpr int kPixelsPerThread = 16;
constexpr int kWordsPerThread = kPixelsPerThread / 4;
constexpr int kApron = 16;
constexpr int kColumns = 4 + 2 * kRadius;  // the 8 columns under one word's four windows

template <bool kMemoryOnly, bool kAligned>
__global__ void conflict_free(const convolution::Params p) {
    extern __shared__ __align__(16) std::uint8_t shared[];
    // Bytes from one tile row to the next, and 32-bit words from one staging
    // row to the next: padded so that the rows a warp reads at once fall on
    // different banks (conflict_free_stride, in tracks/convolution/kernels.h).
    const int block_width = static_cast<int>(blockDim.x);
    const int tile_pitch =
        4 * convolution::conflict_free_stride((kPixelsPerThread * block_width + 2 * kApron) / 4, block_width);
    const int staging_pitch = convolution::conflict_free_stride(kWordsPerThread * block_width, block_width);
    const int tile_height = blockDim.y + 2 * kRadius;
    std::uint8_t* tile = shared;
    // The results, blockDim.y rows of 4*blockDim.x words, after the tile.
    auto* staging = reinterpret_cast<std::uint32_t*>(shared + tile_pitch * tile_height);
    const int x0 = kPixelsPerThread * blockIdx.x * blockDim.x;
    const int y0 = blockIdx.y * blockDim.y;

    for (int r = threadIdx.y; r < tile_height; r += blockDim.y) {
        const std::uint8_t* row = device::clamped_row(p.in, y0 - kRadius + r, p.height, p.pitch);
        auto* tile_row = reinterpret_cast<uint4*>(tile + r * tile_pitch);
        tile_row[1 + threadIdx.x] = device::load_word<kAligned, uint4>(row, x0 + 16 * threadIdx.x, p.pitch);
        for (int side = threadIdx.x; side < 2; side += blockDim.x) {
            const int word = side == 0 ? 0 : blockDim.x + 1;
            tile_row[word] = device::load_word<kAligned, uint4>(row, x0 - kApron + 16 * word, p.pitch);
        }
    }
    __syncthreads();

    const int y = y0 + threadIdx.y;
    const bool whole_block_interior = x0 >= kRadius && y0 >= kRadius &&
                                      x0 + kPixelsPerThread * static_cast<int>(blockDim.x) <= p.width - kRadius &&
                                      y0 + static_cast<int>(blockDim.y) <= p.height - kRadius;
    for (int j = 0; j < kWordsPerThread; ++j) {
        const int w = threadIdx.x + j * blockDim.x;  // this word: pixels x0 + 4w .. x0 + 4w + 3
        // Image pixel x0 + 4w - 2 is tile column 4w + 14.
        const std::uint8_t* window = &tile[threadIdx.y * tile_pitch + 4 * w + kApron - kRadius];
        const std::uint32_t centre = *reinterpret_cast<const std::uint32_t*>(&window[kRadius * tile_pitch + kRadius]);
        std::uint32_t word = centre;
        if (!kMemoryOnly) {
            int sum[4] = {};
            for (int dy = 0; dy < kFilterSize; ++dy) {
                for (int c = 0; c < kColumns; ++c) {
                    const int pixel = window[dy * tile_pitch + c];  // each block row's threads read consecutive words
                    for (int k = 0; k < 4; ++k)
                        if (c - k >= 0 && c - k < kFilterSize)
                            sum[k] += p.filter.weights[dy * kFilterSize + c - k] * pixel;
                }
            }
            for (int k = 0; k < 4; ++k) device::set_byte(word, k, convolution::scale_and_clamp(sum[k], p.filter.scale));
            if (!whole_block_interior)
                for (int k = 0; k < 4; ++k)
                    if (!device::is_interior(x0 + 4 * w + k, y, p.width, p.height))
                        device::set_byte(word, k, device::byte_of(centre, k));
        }
        staging[threadIdx.y * staging_pitch + w] = word;
    }
    __syncthreads();

    const int x = x0 + kPixelsPerThread * threadIdx.x;
    if (x >= p.width || y >= p.height) return;
    const uint4 result = reinterpret_cast<const uint4*>(staging + threadIdx.y * staging_pitch)[threadIdx.x];
    device::store_word<kAligned>(p.out + static_cast<std::size_t>(y) * p.pitch, x, p.width, result);
}

}  // namespace

void convolution::step09_bank_conflicts(const Params& p, cudaStream_t stream) {
    using Kernel = void (*)(Params);
    const Kernel kernels[2][2] = {{conflict_free<false, false>, conflict_free<false, true>},
                                  {conflict_free<true, false>, conflict_free<true, true>}};
    const int block_width = static_cast<int>(p.block.x);
    const int tile_words = conflict_free_stride((kPixelsPerThread * block_width + 2 * kApron) / 4, block_width);
    const int staging_words = conflict_free_stride(kWordsPerThread * block_width, block_width);
    const std::size_t tile = 4 * static_cast<std::size_t>(tile_words) * (p.block.y + 2 * kRadius);
    const std::size_t staging = 4 * static_cast<std::size_t>(staging_words) * p.block.y;
    kernels[p.memory_only][rows_aligned(p, 16)]<<<grid_for(p, kPixelsPerThread), p.block, tile + staging, stream>>>(p);
    CUDA_CHECK_LAUNCH();
}
