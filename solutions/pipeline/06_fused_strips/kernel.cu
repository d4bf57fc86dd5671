// Step 06: the fused kernel tuned: 4 pixels per thread, strips of rows,
// everything in registers.
//
// Step 05 reads and writes 4 bytes a pixel, but the profile says it is not
// bandwidth bound: the SM is busy with instructions (byte loads and stores
// to shared memory, index arithmetic, three __syncthreads() per tile) and
// recomputes a 40x16 grey tile for 32x8 pixels. This step keeps the data in
// registers and makes each instruction do more:
//  * A warp owns a span of 128 columns, each lane 4 of them, and walks down a
//    strip of kRows rows. Each RGB row is three 4-byte loads per lane (a
//    warp's loads are 384 contiguous bytes), issued a row ahead of their use,
//    and each edge row one 4-byte store. Lanes 0 and 31 compute only the
//    halo: a warp writes 120 columns.
//  * Walking down, the blur's vertical pass and the Sobel need the rows above:
//    the last 7 rows of row sums and the last 3 blurred rows stay in
//    registers, so each row is computed once per strip (the strip's first 8
//    rows are its only recomputed halo).
//  * Neighbouring columns come from the neighbouring lanes, by __shfl.
//  * The arithmetic runs on packed bytes: __dp4a multiplies 4 byte pairs and
//    adds them in one instruction (the grey of a pixel is two of them, a row
//    sum of 7 taps two or three, a Sobel gradient two or three); two row sums
//    share a 32-bit register as 16-bit halves for the vertical pass (a
//    column of 7 weighted row sums is at most 65280, so the halves never
//    carry into each other); the square root is the SFU's approximate
//    reciprocal square root, exact here (see edge_byte).
// Warps whose span leaves the image, or images whose rows are not 4-byte
// aligned, load and store byte by byte; everything else is the same code.
#include "tracks/pipeline/device.cuh"

#include "course/check.h"

namespace pipeline {

inline namespace COURSE_KERNEL_COPY {

namespace {

using device::at;
using device::clamp_to;

constexpr int kLaneColumns = 4;                    // columns per lane: one 32-bit word of bytes
constexpr int kSpan = 32 * kLaneColumns;           // columns a warp covers
constexpr int kHalo = 1 + kRadius;                 // columns each side only feed others: Sobel 1, blur 3
constexpr int kOutputColumns = kSpan - 2 * kHalo;  // columns a warp writes
constexpr int kRows = 16;                          // rows a warp writes, walking down
constexpr int kWarps = 2;                          // warps per block, side by side
constexpr int kAhead = 1;                          // RGB rows loaded ahead of the row being computed
static_assert(kHalo == kLaneColumns, "lanes 0 and 31 hold exactly the halo columns of a warp's span");

// Four bytes as one 32-bit word, b0 the lowest: the weights dp4a takes.
constexpr unsigned bytes4(int b0, int b1, int b2, int b3) {
    return (b0 & 0xffu) | (b1 & 0xffu) << 8 | (b2 & 0xffu) << 16 | (b3 & 0xffu) << 24;
}

// a . b + c over 4 byte pairs, a unsigned and b signed (PTX dp4a.u32.s32):
// the Sobel's weights are negative on one side.
__device__ __forceinline__ int dot4_signed(unsigned a, unsigned b, int c) {
    int d;
    asm("dp4a.u32.s32 %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(c));
    return d;
}

// Rule 1 for the pixel in bytes `first`..first+2 of `word` (r, g, b): each
// 16-bit weight is split into a high and a low byte (19585 = 76 x 256 +
// 129, ...), one dp4a for each half. (256 hi + lo + 32768) >> 16 equals
// (hi + ((lo + 32768) >> 8)) >> 8, so the grey is byte 1 of the result.
template <int first>
__device__ __forceinline__ unsigned grey_in_byte1(unsigned word) {
    static_assert(first == 0 || first == 1, "a pixel starts at byte 0 or 1 of its word");
    constexpr unsigned hi = first == 0 ? bytes4(kGreyR >> 8, kGreyG >> 8, kGreyB >> 8, 0)
                                       : bytes4(0, kGreyR >> 8, kGreyG >> 8, kGreyB >> 8);
    constexpr unsigned lo = first == 0 ? bytes4(kGreyR & 255, kGreyG & 255, kGreyB & 255, 0)
                                       : bytes4(0, kGreyR & 255, kGreyG & 255, kGreyB & 255);
    return __dp4a(word, hi, __dp4a(word, lo, 32768u) >> 8);
}

// The greys of a lane's 4 pixels, one byte each, from their 12 RGB bytes
// r0 g0 b0 r1 | g1 b1 r2 g2 | b2 r3 g3 b3 in three words.
__device__ __forceinline__ unsigned greys_of_words(unsigned w0, unsigned w1, unsigned w2) {
    const unsigned g0 = grey_in_byte1<0>(w0);
    const unsigned g1 = grey_in_byte1<0>(__byte_perm(w0, w1, 0x0543));  // r1 g1 b1
    const unsigned g2 = grey_in_byte1<0>(__byte_perm(w1, w2, 0x0432));  // r2 g2 b2
    const unsigned g3 = grey_in_byte1<1>(w2);
    return __byte_perm(__byte_perm(g0, g1, 0x0051), __byte_perm(g2, g3, 0x0051), 0x5410);
}

// The 7-tap row pass for a lane's 4 columns, from the greys of its left
// neighbour (columns -4..-1), its own (0..3) and its right neighbour
// (4..7): each sum is two or three dp4a with the weights 1 2 3 4 3 2 1 laid
// over the words. Every sum starts at 8: 16 rows of weights later that is
// the +128 that rounds the blur (rule 2). Two sums share a word as 16-bit
// halves: columns 0 and 1 in `lo`, 2 and 3 in `hi`.
struct RowSums {
    unsigned lo, hi;  // columns 0, 1 and columns 2, 3, as 16-bit halves
};
__device__ __forceinline__ RowSums row_pass(unsigned left, unsigned mine, unsigned right) {
    const unsigned s0 = __dp4a(left, bytes4(0, 1, 2, 3), __dp4a(mine, bytes4(4, 3, 2, 1), 8u));
    const unsigned s1 =
        __dp4a(left, bytes4(0, 0, 1, 2), __dp4a(mine, bytes4(3, 4, 3, 2), __dp4a(right, bytes4(1, 0, 0, 0), 8u)));
    const unsigned s2 =
        __dp4a(left, bytes4(0, 0, 0, 1), __dp4a(mine, bytes4(2, 3, 4, 3), __dp4a(right, bytes4(2, 1, 0, 0), 8u)));
    const unsigned s3 = __dp4a(mine, bytes4(1, 2, 3, 4), __dp4a(right, bytes4(3, 2, 1, 0), 8u));
    return {s0 | s1 << 16, s2 | s3 << 16};
}

// The 7-tap column pass on 16-bit halves, rows r[0] (top) .. r[6]: the
// weighted sum in each half is at most 65280 + 128, so no half carries into
// the other, and the blurred pixel (sum >> 8) is the half's high byte.
__device__ __forceinline__ unsigned column_pass(const unsigned (&r)[7]) {
    const unsigned p = r[2] + r[4];
    const unsigned q = r[1] + r[5] + p;
    const unsigned s = r[0] + r[6] + q;
    return s + q + p + 4 * r[3];  // (r0 + r6) + 2 (r1 + r5) + 3 (r2 + r4) + 4 r3
}

// The blurred bytes around each of a lane's 4 columns: window c holds the
// pixels at columns c - 1, c, c + 1 (clamped into the image) in bytes 0..2,
// picked by __byte_perm with the selectors the lane computed once.
struct Windows {
    unsigned w[4];
};
__device__ __forceinline__ Windows windows_of(unsigned left, unsigned mine, unsigned right, const unsigned (&sel)[4]) {
    return {{__byte_perm(left, mine, sel[0]), __byte_perm(left, mine, sel[1]), __byte_perm(mine, right, sel[2]),
             __byte_perm(mine, right, sel[3])}};
}

// Rule 3 from the windows of three blurred rows, as a byte in the low byte
// of the result. The square root: s (< 2^23) becomes a float exactly
// through its bits (0x4B000000 | s is 2^23 + s); s * rsqrt(s) has a relative
// error below 2^-22, at most 0.0001 below the cap, while sqrt(s) of a whole
// s is at least 0.25 / 511 from any half-integer there: rounding it gives
// the nearest integer exactly. Adding 1.5 x 2^23 rounds to an integer in the
// float's low mantissa bits.
__device__ __forceinline__ unsigned edge_byte(unsigned up, unsigned mid, unsigned down) {
    const int gx = dot4_signed(up, bytes4(-1, 0, 1, 0),
                               dot4_signed(mid, bytes4(-2, 0, 2, 0), dot4_signed(down, bytes4(-1, 0, 1, 0), 0)));
    const int gy = dot4_signed(up, bytes4(1, 2, 1, 0), dot4_signed(down, bytes4(-1, -2, -1, 0), 0));
    const int s = gx * gx + gy * gy;
    const float f = __int_as_float(0x4B000000 | s) - 8388608.0f;
    float r;
    asm("rsqrt.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(fmaxf(f, 1.0f)));
    return __float_as_uint(fminf(f * r, 255.0f) + 12582912.0f);
}

__global__ void __launch_bounds__(32 * kWarps) fused_v6(Params p, bool aligned) {
    const int lane = threadIdx.x % 32;
    const int span = blockIdx.x * kWarps + threadIdx.x / 32;
    const int xw = span * kOutputColumns - kHalo;  // the warp's first column (a halo column)
    if (xw + kHalo >= p.width) return;             // a warp with no columns to write (whole warps only)
    const int xl = xw + kLaneColumns * lane;       // the lane's first column
    const int ys = blockIdx.y * kRows;             // the strip's first row
    // Whole words when the rows allow 4-byte loads and stores and the warp's
    // span lies inside the image (the same for the whole warp).
    const bool words = aligned && xw >= 0 && xw + kSpan <= p.width;

    // Window selectors: byte j of window c is column clamp(xl + c + j - 1),
    // taken from the 8 bytes [left word, own word] (c = 0, 1) or [own word,
    // right word] (c = 2, 3). Columns outside the image clamp to the edge:
    // the Sobel's border rule, at no cost per row.
    unsigned sel[4];
    for (int c = 0; c < 4; ++c) {
        const int base = c < 2 ? xl - kLaneColumns : xl;  // the column of byte 0 of the 8
        unsigned s = 0;
        for (int j = 0; j < 3; ++j) s |= static_cast<unsigned>((clamp_to(xl + c + j - 1, p.width) - base) & 7) << 4 * j;
        sel[c] = s;
    }

    unsigned rows[7] = {};   // row sums of the last 7 grey rows, 16-bit halves: columns 0, 1
    unsigned rows2[7] = {};  // columns 2, 3
    Windows up{}, mid{}, down{};
    unsigned last_blurred = 0;

    // The RGB words of the next kAhead rows, loaded before they are needed:
    // a load takes hundreds of cycles, and the row in hand hides it.
    unsigned ahead[kAhead][3];
    const auto load_row = [&](int t, unsigned(&w)[3]) {
        const int gy = clamp_to(ys - kHalo + t, p.height);
        const unsigned* source = reinterpret_cast<const unsigned*>(p.rgb + at(3 * xl, gy, p.rgb_pitch));
        w[0] = __ldg(source);
        w[1] = __ldg(source + 1);
        w[2] = __ldg(source + 2);
    };
    if (words)
#pragma unroll
        for (int a = 0; a < kAhead; ++a) load_row(a, ahead[a]);

#pragma unroll
    for (int t = 0; t < kRows + 2 * kHalo; ++t) {
        // Grey row gy (clamped): 3 words a lane, or 12 bytes at the edges.
        const int gy = clamp_to(ys - kHalo + t, p.height);
        const std::uint8_t* row = p.rgb + static_cast<std::size_t>(gy) * p.rgb_pitch;
        unsigned greys;
        if (words) {
            const unsigned w0 = ahead[t % kAhead][0], w1 = ahead[t % kAhead][1], w2 = ahead[t % kAhead][2];
            if (t + kAhead < kRows + 2 * kHalo) load_row(t + kAhead, ahead[t % kAhead]);
            greys = greys_of_words(w0, w1, w2);
        } else {
            greys = 0;
            for (int c = 0; c < 4; ++c) {
                const std::uint8_t* px = row + 3 * clamp_to(xl + c, p.width);
                greys |= static_cast<unsigned>(grey_of(__ldg(px), __ldg(px + 1), __ldg(px + 2))) << 8 * c;
            }
        }
        const RowSums sums =
            row_pass(__shfl_up_sync(0xffffffffu, greys, 1), greys, __shfl_down_sync(0xffffffffu, greys, 1));
        for (int k = 0; k < 6; ++k) rows[k] = rows[k + 1], rows2[k] = rows2[k + 1];
        rows[6] = sums.lo;
        rows2[6] = sums.hi;
        if (t < 2 * kRadius) continue;

        // Blurred row by = gy - 3, its high bytes packed into one word; the
        // row below the image is the last row again (the Sobel's border).
        const int by = ys - kHalo + t - kRadius;
        unsigned blurred = __byte_perm(column_pass(rows), column_pass(rows2), 0x7531);
        if (by >= p.height) blurred = last_blurred;
        last_blurred = blurred;
        up = mid;
        mid = down;
        down = windows_of(__shfl_up_sync(0xffffffffu, blurred, 1), blurred, __shfl_down_sync(0xffffffffu, blurred, 1),
                          sel);
        if (t == 2 * kRadius + 1 && ys == 0) mid = down;  // the row above the image is row 0
        if (t < 2 * kHalo) continue;

        // Edge row y = by - 1.
        const int y = by - 1;
        if (y >= p.height) break;
        const unsigned e0 = edge_byte(up.w[0], mid.w[0], down.w[0]), e1 = edge_byte(up.w[1], mid.w[1], down.w[1]);
        const unsigned e2 = edge_byte(up.w[2], mid.w[2], down.w[2]), e3 = edge_byte(up.w[3], mid.w[3], down.w[3]);
        const bool writes = lane > 0 && lane < 31;
        std::uint8_t* out = p.out + at(xl, y, p.pitch);
        if (words) {
            if (writes)
                *reinterpret_cast<unsigned*>(out) =
                    __byte_perm(__byte_perm(e0, e1, 0x0040), __byte_perm(e2, e3, 0x0040), 0x5410);
        } else if (writes) {
            const unsigned e[4] = {e0, e1, e2, e3};
            for (int c = 0; c < 4; ++c)
                if (xl + c >= 0 && xl + c < p.width) out[c] = static_cast<std::uint8_t>(e[c]);
        }
    }
}

}  // namespace

void step06_fused_strips(const Params& p, cudaStream_t stream) {
    const dim3 grid = grid_for(p, kOutputColumns * kWarps, kRows);
    fused_v6<<<grid, 32 * kWarps, 0, stream>>>(p, rows_aligned(p, 4));
    CUDA_CHECK_LAUNCH();
}

}  // namespace COURSE_KERNEL_COPY

}  // namespace pipeline
