// Convolution, step 10: unrolled, whole words, four products per instruction.
//                                                           (your starting point)
//
// This file is the solution of step 09, renamed to step 10's launcher: it
// compiles, runs and is correct, at step 09's speed.
// Change it where the TODO(step 10) markers are.
//
// Do the computation on 32-bit words: three 4-byte shared loads per filter
// row instead of eight 1-byte loads, four byte products per instruction
// (dp4a) instead of one, a shift for the power-of-two scale, every loop
// unrolled.
//
// README.md in this folder explains the step; run your kernel with
// `meson compile -C build convolution-10 && build/lessons/convolution-10`.
#include "tracks/convolution.h"
#include "tracks/convolution_device.cuh"

#include "course/check.h"

namespace {

using convolution::kFilterSize;
using convolution::kRadius;
namespace device = convolution::device;

constexpr int kPixelsPerThread = 16;
constexpr int kWordsPerThread = kPixelsPerThread / 4;
constexpr int kApron = 16;
constexpr int kColumns = 4 + 2 * kRadius;   // the 8 columns under one word's four windows

// TODO(step 10): three helpers.
//  * What the arithmetic needs, prepared once by the launcher:
//      struct Arithmetic { convolution::PackedFilter packed; int shift; float scale; };
//    (convolution::pack_for_dp4a lays the weights out for dot4;
//    convolution::scale_shift gives k when the scale is 2^-k, else -1).
//  * dot4(pixels, weights, acc): the PTX instruction dp4a.u32.s32 (inline
//    asm), acc plus the four products of the unsigned bytes of `pixels` and
//    the signed bytes of `weights`.
//  * finish<kShift>(sum, shift, scale): (sum >> shift) clamped to 0..255, or
//    scale_and_clamp(sum, scale) when the scale is not a power of two.
template <bool kMemoryOnly, bool kAligned>
__global__ void unrolled(const convolution::Params p) {
    extern __shared__ __align__(16) std::uint8_t shared[];
    // Bytes from one tile row to the next, and 32-bit words from one staging
    // row to the next: padded so that the rows a warp reads at once fall on
    // different banks (conflict_free_stride, in tracks/convolution.h).
    const int block_width = static_cast<int>(blockDim.x);
    const int tile_pitch = 4 * convolution::conflict_free_stride((kPixelsPerThread * block_width + 2 * kApron) / 4, block_width);
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
        const int w = threadIdx.x + j * blockDim.x;   // this word: pixels x0 + 4w .. x0 + 4w + 3
        // Image pixel x0 + 4w - 2 is tile column 4w + 14.
        const std::uint8_t* window = &tile[threadIdx.y * tile_pitch + 4 * w + kApron - kRadius];
        const std::uint32_t centre = *reinterpret_cast<const std::uint32_t*>(&window[kRadius * tile_pitch + kRadius]);
        std::uint32_t word = centre;
        // TODO(step 10): the word's sums on whole words: per filter row dy, the three
        // tile words left (pixels x-4 .. x-1), middle (x .. x+3), right (x+4 ..
        // x+7) of the word's pixels x .. x+3 (three 4-byte loads, not 8 byte
        // loads), and two dot4 per pixel with a.packed.words[dy][0..7] (see
        // PackedFilter in tracks/convolution.h for which word goes with which).
        // Then the four results through finish<kShift>, packed into the word.
        // Unroll everything (#pragma unroll on the word loop and the row loop), so
        // every index is a constant.
        if (!kMemoryOnly) {
            int sum[4] = {};
            for (int dy = 0; dy < kFilterSize; ++dy) {
                for (int c = 0; c < kColumns; ++c) {
                    const int pixel = window[dy * tile_pitch + c];   // the warp reads 32 consecutive words
                    for (int k = 0; k < 4; ++k)
                        if (c - k >= 0 && c - k < kFilterSize) sum[k] += p.filter.weights[dy * kFilterSize + c - k] * pixel;
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

void convolution::step10_unrolled(const Params& p, cudaStream_t stream) {
    // TODO(step 10): build the Arithmetic (pack_for_dp4a(p.filter),
    // scale_shift(p.filter.scale), p.filter.scale), pass it to the kernel, and
    // pick kShift = (shift >= 0) in the table of kernels.
    using Kernel = void (*)(Params);
    const Kernel kernels[2][2] = {{unrolled<false, false>, unrolled<false, true>},
                                  {unrolled<true, false>, unrolled<true, true>}};
    const int block_width = static_cast<int>(p.block.x);
    const int tile_words = conflict_free_stride((kPixelsPerThread * block_width + 2 * kApron) / 4, block_width);
    const int staging_words = conflict_free_stride(kWordsPerThread * block_width, block_width);
    const std::size_t tile = 4 * static_cast<std::size_t>(tile_words) * (p.block.y + 2 * kRadius);
    const std::size_t staging = 4 * static_cast<std::size_t>(staging_words) * p.block.y;
    kernels[p.memory_only][rows_aligned(p, 16)]<<<grid_for(p, kPixelsPerThread), p.block, tile + staging, stream>>>(p);
    CUDA_CHECK_LAUNCH();
}
