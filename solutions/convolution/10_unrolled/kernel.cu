// Convolution, step 10: unrolled, whole words, four products per
// instruction.
//
// Step 09 moves the data well; what is left is arithmetic. For each output
// pixel it reads 25 bytes from shared memory one at a time and does 25
// 32-bit multiply-adds, and on Hopper an integer multiply-add issues at half
// the rate of a float one. This step does the same sums on whole 32-bit
// words:
//
//  * For a word of 4 output pixels, x .. x+3, the 5 rows of input each lie in
//    three aligned words of the tile, A (x-4 .. x-1), B (x .. x+3) and C
//    (x+4 .. x+7): 15 four-byte shared loads instead of 40 one-byte loads.
//  * __dp4a-style dot products (PTX dp4a) multiply the four bytes of one word
//    by four signed bytes and add all four products in one instruction. Each
//    output pixel needs two per row (its 5 pixels straddle two words), with
//    the weights laid out on the host to match (pack_for_dp4a): 10 dot
//    products per pixel instead of 25 multiply-adds. This is the modern
//    "fast math" for 8-bit data; the talk's, __mul24, is slower than a
//    32-bit multiply on today's GPUs.
//  * The scale is 1/64, a power of two: trunc(S * 2^-6) clamped to 0..255
//    is (S >> 6) clamped, one shift instead of two conversions and a
//    multiply (scale_shift says when that holds; other scales keep the float
//    rule).
//  * Every loop is unrolled (#pragma unroll), so every index is a constant:
//    the packed weights are read straight from the kernel's parameters (the
//    constant bank), the sums stay in registers.
//
// The talk's last step, "unroll inner loop, fast math": 2.9 ms to 2.5 ms.
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

// What the arithmetic needs, prepared once on the host.
struct Arithmetic {
    convolution::PackedFilter packed;   // the weights as signed bytes, laid out for dot4
    int shift;                          // scale = 2^-shift (kShift kernels only)
    float scale;
};

// Four products in one instruction: the four bytes of `pixels` (unsigned)
// times the four bytes of `weights` (signed), added to `acc`. CUDA's __dp4a
// takes both operands signed or both unsigned; the PTX instruction behind
// it also takes them mixed, as here.
__device__ __forceinline__ int dot4(std::uint32_t pixels, int weights, int acc) {
    int result;
    asm("dp4a.u32.s32 %0, %1, %2, %3;" : "=r"(result) : "r"(pixels), "r"(weights), "r"(acc));
    return result;
}

// A weighted sum to a pixel: the track's rule, or for a power-of-two scale
// the shift that gives the same result.
template <bool kShift>
__device__ __forceinline__ std::uint32_t finish(int sum, int shift, float scale) {
    if constexpr (kShift) {
        const int value = sum >> shift;   // rounds down; differs from trunc only below 0, which clamps to 0
        return static_cast<std::uint32_t>(value < 0 ? 0 : value > 255 ? 255 : value);
    } else {
        return convolution::scale_and_clamp(sum, scale);
    }
}

template <bool kMemoryOnly, bool kAligned, bool kShift>
__global__ void unrolled(const convolution::Params p, const Arithmetic a) {
    extern __shared__ __align__(16) std::uint8_t shared[];
    // Bytes from one tile row to the next, and 32-bit words from one staging
    // row to the next: padded so that the rows a warp reads at once fall on
    // different banks (conflict_free_stride, in tracks/convolution.h).
    const int block_width = static_cast<int>(blockDim.x);
    const int tile_pitch = 4 * convolution::conflict_free_stride((kPixelsPerThread * block_width + 2 * kApron) / 4, block_width);
    const int staging_pitch = convolution::conflict_free_stride(kWordsPerThread * block_width, block_width);
    const int tile_height = blockDim.y + 2 * kRadius;
    std::uint8_t* tile = shared;
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
    // The tile as 32-bit words: tile word i holds image pixels x0 - 16 + 4i .. + 3.
    const auto* tile_words = reinterpret_cast<const std::uint32_t*>(tile);
    const int words_per_tile_row = tile_pitch / 4;
#pragma unroll
    for (int j = 0; j < kWordsPerThread; ++j) {
        const int w = threadIdx.x + j * blockDim.x;   // this word: pixels x0 + 4w .. x0 + 4w + 3
        // B, the word of the pixels themselves, is tile word w + 4; A and C its neighbours.
        const std::uint32_t* b = tile_words + threadIdx.y * words_per_tile_row + w + kApron / 4;
        const std::uint32_t centre = b[kRadius * words_per_tile_row];
        std::uint32_t word = centre;
        if (!kMemoryOnly) {
            int sum0 = 0, sum1 = 0, sum2 = 0, sum3 = 0;
#pragma unroll
            for (int dy = 0; dy < kFilterSize; ++dy) {
                const std::uint32_t* row = b + dy * words_per_tile_row;
                const std::uint32_t left = row[-1], middle = row[0], right = row[1];
                sum0 = dot4(middle, a.packed.words[dy][1], dot4(left, a.packed.words[dy][0], sum0));
                sum1 = dot4(middle, a.packed.words[dy][3], dot4(left, a.packed.words[dy][2], sum1));
                sum2 = dot4(right, a.packed.words[dy][5], dot4(middle, a.packed.words[dy][4], sum2));
                sum3 = dot4(right, a.packed.words[dy][7], dot4(middle, a.packed.words[dy][6], sum3));
            }
            word = finish<kShift>(sum0, a.shift, a.scale) | finish<kShift>(sum1, a.shift, a.scale) << 8 |
                   finish<kShift>(sum2, a.shift, a.scale) << 16 | finish<kShift>(sum3, a.shift, a.scale) << 24;
            if (!whole_block_interior) {
#pragma unroll
                for (int k = 0; k < 4; ++k)
                    if (!device::is_interior(x0 + 4 * w + k, y, p.width, p.height))
                        device::set_byte(word, k, device::byte_of(centre, k));
            }
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
    const Arithmetic arithmetic{pack_for_dp4a(p.filter), scale_shift(p.filter.scale), p.filter.scale};
    using Kernel = void (*)(Params, Arithmetic);
    const Kernel kernels[2][2][2] = {
        {{unrolled<false, false, false>, unrolled<false, false, true>},
         {unrolled<false, true, false>, unrolled<false, true, true>}},
        {{unrolled<true, false, false>, unrolled<true, false, true>},
         {unrolled<true, true, false>, unrolled<true, true, true>}},
    };
    const int block_width = static_cast<int>(p.block.x);
    const int tile_words = conflict_free_stride((kPixelsPerThread * block_width + 2 * kApron) / 4, block_width);
    const int staging_words = conflict_free_stride(kWordsPerThread * block_width, block_width);
    const std::size_t tile = 4 * static_cast<std::size_t>(tile_words) * (p.block.y + 2 * kRadius);
    const std::size_t staging = 4 * static_cast<std::size_t>(staging_words) * p.block.y;
    const Kernel kernel = kernels[p.memory_only][rows_aligned(p, 16)][arithmetic.shift >= 0];
    kernel<<<grid_for(p, kPixelsPerThread), p.block, tile + staging, stream>>>(p, arithmetic);
    CUDA_CHECK_LAUNCH();
}
