// Convolution, step 10: unrolled into registers, four products per
// instruction.                                              (your starting point)
//
// This file is the solution of step 09, renamed to step 10's launcher: it
// compiles, runs and is correct, at step 09's speed.
// Change it where the TODO(step 10) markers are.
//
// This step replaces the kernel's structure, not a line of it: no shared
// memory at all. Each thread computes a strip of 16 pixels x 2 rows from the
// 6 input rows under it, loaded straight from global memory into registers
// (the caches serve the rows and words neighbouring strips share), and does
// the arithmetic on whole words: dp4a on "column words", a shift for the
// power-of-two scale, every loop unrolled so that every array stays in
// registers.
//
// README.md in this folder explains the step; run your kernel with
// `meson compile -C build convolution-10 && build/lessons/convolution-10`.
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

// TODO(step 10): the helpers.
//  * struct Arithmetic { convolution::PackedFilter packed; int shift; float scale; },
//    prepared once by the launcher: convolution::pack_for_dp4a lays the
//    weights out (PackedFilter in tracks/convolution/kernels.h says how), and
//    convolution::scale_shift gives k when the scale is 2^-k, else -1.
//  * dot4(pixels, weights, acc): the PTX instruction dp4a.u32.s32 (inline
//    asm), acc plus the four products of the unsigned bytes of `pixels` and
//    the signed bytes of `weights`.
//  * finishing four sums into one word: (sum >> shift) clamped to 0..255 (two
//    PTX cvt.pack.sat.u8.s32.b32 clamp and pack all four), or
//    scale_and_clamp(sum, scale) when the scale is not a power of two.
//  * struct Row { std::uint32_t words[6]; }: one input row under a strip
//    starting at x, pixels x-4 .. x+19; and load_row: one 16-byte load and
//    two 4-byte loads. Near the image's edges (or with rows that are not
//    16-byte aligned) it must clamp the row (device::clamped_row) and check
//    every word (device::load_word); everywhere else it needs no checks.
//  * slide_down(column, row, i): column word i (column x-2+i: rows y-2 ..
//    y+1, the oldest in byte 0) moved down one row, with __byte_perm.
//
// TODO(step 10): the kernel. Thread (x, y0) with x = 16 * (global thread x)
// and y0 = 2 * (global thread y): load rows y0-2 .. y0+1 and build the 20
// column words; then for y = y0, y0+1: load row y+2; each pixel's sum is 5
// dot4 on its 5 column words (rows 0..3 of the filter) and 2 dot4 on row
// y+2's words (row 4); finish, store 16 bytes; slide every column word down.
// A strip clear of the frame (almost all of them) takes a path with no
// clamping and no checks; the strips at the edges copy their frame pixels
// through, as before. The memory-only variant makes the same loads and stores
// the centre rows' own words, with no arithmetic. #pragma unroll every loop,
// and bound the kernel with __launch_bounds__(1024), since --block accepts
// blocks that large.
template <bool kMemoryOnly, bool kAligned>
__global__ void unrolled(const convolution::Params p) {
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

void convolution::step10_unrolled(const Params& p, cudaStream_t stream) {
    // TODO(step 10): build the Arithmetic, pass it to the kernel, pick
    // kShift = (shift >= 0) in the table of kernels, launch with no shared
    // memory on grid_for(p, 16, 2): 16 pixels and 2 rows per thread.
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
