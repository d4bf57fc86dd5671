// Convolution, step 10: unrolled into registers, four products per
// instruction.
//
// Step 09 moves the data well; what is left is instructions. For every four
// output pixels it reads 40 bytes from shared memory one at a time (10 a
// pixel) and does 25 integer multiply-adds a pixel, and every block loads a tile, waits at two barriers
// and stages its results. The talk's last step unrolled the inner loop and
// used fast math (2.9 ms to 2.5 ms on the 8800 GT). This step takes both as
// far as they go:
//
//  * Every loop is unrolled (#pragma unroll), so every array index is a
//    constant and the arrays live in registers. That lets a thread keep the
//    input rows it needs in registers: it computes a strip 16 pixels wide and
//    kRowsPerThread = 2 rows high from the 6 rows under it, each read
//    straight from global memory, 16 bytes plus a word on either side. The
//    rows and words the neighbouring strips share come from the L1 and L2
//    caches, which the talk's GPU did not have, so step 09's shared-memory
//    tile, its barriers and its staging are gone.
//  * dp4a multiplies the four bytes of one word by four signed bytes and adds
//    the four products, in one instruction. Along a row, a pixel's 5 taps
//    straddle two words: 2 dp4a per filter row, 10 per pixel. Down a column
//    they fit better: a "column word" holds one column's pixels in 4
//    consecutive rows, so filter rows 0..3 take one dp4a per column, 5 per
//    pixel, and row 4 the two along its row: 7 dp4a for 25 products. Moving
//    down a row slides each column word by one byte (one byte permute).
//  * The scale is 1/64, a power of two: trunc(S * 2^-6) clamped to 0..255 is
//    (S >> 6) clamped (scale_shift says when that holds; other scales keep
//    the float rule), and clamping four sums and packing them into one word
//    is two cvt.pack.sat instructions.
#include "tracks/convolution/device.cuh"
#include "tracks/convolution/kernels.h"

#include "course/check.h"

namespace {

using convolution::kFilterSize;
using convolution::kRadius;
namespace device = convolution::device;

constexpr int kPixelsPerThread = 16;  // one 16-byte load per row
constexpr int kRowsPerThread = 2;
constexpr int kWindowRows = kRowsPerThread + 2 * kRadius;  // input rows under a strip
constexpr int kColumns = kPixelsPerThread + 2 * kRadius;   // input columns under a strip
constexpr int kRowWords = kPixelsPerThread / 4 + 2;        // a row under a strip, a word either side
static_assert(kPixelsPerThread == 16, "a strip's row is one 16-byte word (uint4)");
static_assert(kRadius <= 4, "the apron on either side of a strip must fit in one word");
static_assert(kFilterSize - 1 == 4, "a column word holds filter rows 0..3; row 4 goes along its row");

// What the arithmetic needs, prepared once on the host.
struct Arithmetic {
    convolution::PackedFilter packed;  // the weights as signed bytes, laid out for dot4
    int shift;                         // scale = 2^-shift (kShift kernels only)
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

// Four values clamped to 0..255 and packed into one word, v0 in the lowest
// byte: cvt.pack.sat (compute capability 7.2 and later) converts two values
// with saturation and shifts a third operand's low half in above them.
__device__ __forceinline__ std::uint32_t clamp_and_pack(int v0, int v1, int v2, int v3) {
#if __CUDA_ARCH__ >= 720
    std::uint32_t high, word;
    asm("cvt.pack.sat.u8.s32.b32 %0, %1, %2, %3;" : "=r"(high) : "r"(v3), "r"(v2), "r"(0u));
    asm("cvt.pack.sat.u8.s32.b32 %0, %1, %2, %3;" : "=r"(word) : "r"(v1), "r"(v0), "r"(high));
    return word;
#else
    const auto clamp = [](int v) { return static_cast<std::uint32_t>(v < 0 ? 0 : v > 255 ? 255 : v); };
    return clamp(v0) | clamp(v1) << 8 | clamp(v2) << 16 | clamp(v3) << 24;
#endif
}

// Four weighted sums to four pixels: the shift, or the track's float rule.
template <bool kShift>
__device__ __forceinline__ std::uint32_t finish(const int (&sums)[4], const Arithmetic& a) {
    if constexpr (kShift) {
        // >> rounds down, trunc toward zero: they differ only below 0, which clamps to 0 either way.
        return clamp_and_pack(sums[0] >> a.shift, sums[1] >> a.shift, sums[2] >> a.shift, sums[3] >> a.shift);
    } else {
        std::uint32_t word = 0;
#pragma unroll
        for (int k = 0; k < 4; ++k)
            word |= static_cast<std::uint32_t>(convolution::scale_and_clamp(sums[k], a.scale)) << (8 * k);
        return word;
    }
}

// One input row under a strip starting at x: words[0] holds pixels x-4..x-1,
// words[1..4] the strip's 16 pixels, words[5] pixels x+16..x+19.
struct Row {
    std::uint32_t words[kRowWords];
};

// kAtEdge: the strip touches the frame, or the rows are not 16-byte aligned:
// clamp the row into the image and check every word. Otherwise every word
// lies inside the row, and the loads need no checks.
template <bool kAtEdge, bool kAligned>
__device__ __forceinline__ Row load_row(const convolution::Params& p, int x, int y) {
    Row row;
    if constexpr (kAtEdge) {
        const std::uint8_t* start = device::clamped_row(p.in, y, p.height, p.pitch);
        const uint4 middle = device::load_word<kAligned, uint4>(start, x, p.pitch);
        row.words[0] = device::load_word<kAligned, std::uint32_t>(start, x - 4, p.pitch);
        row.words[1] = middle.x, row.words[2] = middle.y, row.words[3] = middle.z, row.words[4] = middle.w;
        row.words[5] = device::load_word<kAligned, std::uint32_t>(start, x + kPixelsPerThread, p.pitch);
    } else {
        const std::uint8_t* start = p.in + static_cast<std::size_t>(y) * p.pitch + x;
        const uint4 middle = *reinterpret_cast<const uint4*>(start);
        row.words[0] = *reinterpret_cast<const std::uint32_t*>(start - 4);
        row.words[1] = middle.x, row.words[2] = middle.y, row.words[3] = middle.z, row.words[4] = middle.w;
        row.words[5] = *reinterpret_cast<const std::uint32_t*>(start + kPixelsPerThread);
    }
    return row;
}

// Column word i (the strip's column x-2+i) moved down one row: its top byte
// drops out, the column's pixel in `row` comes in at the bottom. One byte
// permute: result bytes 0..2 are the old bytes 1..3 (selectors 1, 2, 3),
// byte 3 is byte `b` of the row's word (selector 4 + b).
__device__ __forceinline__ std::uint32_t slide_down(std::uint32_t column, const Row& row, int i) {
    const int byte = i + 4 - kRadius;  // the column's byte in row.words, which start at x-4
    return __byte_perm(column, row.words[byte / 4], 0x0321 | (4 + byte % 4) << 12);
}

// The strip at (x, y0): kRowsPerThread rows of 16 pixels.
template <bool kMemoryOnly, bool kAtEdge, bool kAligned, bool kShift>
__device__ __forceinline__ void filter_strip(const convolution::Params& p, const Arithmetic& a, int x, int y0) {
    Row rows[kWindowRows];            // input rows y0-2 .. y0+kRowsPerThread+1
    std::uint32_t columns[kColumns];  // column words of columns x-2 .. x+17: rows y-2 .. y+1
#pragma unroll
    for (int r = 0; r < 2 * kRadius; ++r) {
        rows[r] = load_row<kAtEdge, kAligned>(p, x, y0 - kRadius + r);
        if (!kMemoryOnly) {
#pragma unroll
            for (int i = 0; i < kColumns; ++i) columns[i] = slide_down(r == 0 ? 0u : columns[i], rows[r], i);
        }
    }
#pragma unroll
    for (int r = 0; r < kRowsPerThread; ++r) {
        const int y = y0 + r;
        if (kAtEdge && y >= p.height) return;
        rows[r + 2 * kRadius] = load_row<kAtEdge, kAligned>(p, x, y + kRadius);
        const Row& centre = rows[r + kRadius];
        const Row& last = rows[r + 2 * kRadius];  // filter row 4
        std::uint32_t out[kPixelsPerThread / 4];
#pragma unroll
        for (int m = 0; m < kPixelsPerThread / 4; ++m) {  // out[m]: pixels x+4m .. x+4m+3
            std::uint32_t word = centre.words[m + 1];
            if (!kMemoryOnly) {
                int sums[4];
#pragma unroll
                for (int k = 0; k < 4; ++k) {
                    const int pixel = 4 * m + k;  // its window's columns are pixel .. pixel+4
                    int sum = 0;
#pragma unroll
                    for (int dx = 0; dx < kFilterSize; ++dx) sum = dot4(columns[pixel + dx], a.packed.columns[dx], sum);
                    // Row 4: the pixel's 5 bytes lie in words m, m+1 (k = 0, 1) or m+1, m+2 (k = 2, 3).
                    const std::uint32_t first = last.words[k < 2 ? m : m + 1];
                    const std::uint32_t second = last.words[k < 2 ? m + 1 : m + 2];
                    sums[k] = dot4(second, a.packed.last_row[2 * k + 1], dot4(first, a.packed.last_row[2 * k], sum));
                }
                word = finish<kShift>(sums, a);
                if (kAtEdge) {
#pragma unroll
                    for (int k = 0; k < 4; ++k)
                        if (!device::is_interior(x + 4 * m + k, y, p.width, p.height))
                            device::set_byte(word, k, device::byte_of(centre.words[m + 1], k));
                }
            }
            out[m] = word;
        }
        if (!kMemoryOnly && r + 1 < kRowsPerThread) {
#pragma unroll
            for (int i = 0; i < kColumns; ++i) columns[i] = slide_down(columns[i], last, i);
        }
        std::uint8_t* out_row = p.out + static_cast<std::size_t>(y) * p.pitch;
        const uint4 result{out[0], out[1], out[2], out[3]};
        if (kAtEdge)
            device::store_word<kAligned>(out_row, x, p.width, result);
        else
            *reinterpret_cast<uint4*>(out_row + x) = result;
    }
}

// 1024 threads, the largest block --block accepts, caps the kernel at 64
// registers per thread (65536 per multiprocessor).
template <bool kMemoryOnly, bool kAligned, bool kShift>
__global__ void __launch_bounds__(1024) unrolled(const convolution::Params p, const Arithmetic a) {
    const int x = kPixelsPerThread * static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
    const int y0 = kRowsPerThread * static_cast<int>(blockIdx.y * blockDim.y + threadIdx.y);
    if (x >= p.width || y0 >= p.height) return;
    // Nearly every strip lies clear of the frame: its rows need no clamping,
    // its pixels no frame test, and with aligned rows its words lie inside
    // the row (x >= 16 and x + 18 <= width <= pitch; x and the pitch are
    // multiples of 16, so x + 20 <= pitch). Only strips at the image's edges
    // take the careful path; the test costs one branch per thread.
    const bool inside = kAligned && x >= kRadius && y0 >= kRadius && x + kPixelsPerThread <= p.width - kRadius &&
                        y0 + kRowsPerThread <= p.height - kRadius;
    if (inside)
        filter_strip<kMemoryOnly, false, kAligned, kShift>(p, a, x, y0);
    else
        filter_strip<kMemoryOnly, true, kAligned, kShift>(p, a, x, y0);
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
    const Kernel kernel = kernels[p.memory_only][rows_aligned(p, 16)][arithmetic.shift >= 0];
    kernel<<<grid_for(p, kPixelsPerThread, kRowsPerThread), p.block, 0, stream>>>(p, arithmetic);
    CUDA_CHECK_LAUNCH();
}
