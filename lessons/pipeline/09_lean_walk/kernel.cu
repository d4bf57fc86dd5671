// Image pipeline, step 09: step 08's walk with fewer instructions that do no
// work: row pointers, a turn of 12 rows, strips of 24.
// (your starting point: step 08's solution)
//
// Do the TODO(step 09)s; README.md in this folder explains the change and
// what the machine code says. Run with
//     meson compile -C build pipeline-09 && build/lessons/pipeline-09
#include "tracks/pipeline/device.cuh"

#include "course/check.h"

#include <numeric>

// TODO(step 09): strips of 24 rows (ROWS: two turns of 12, see
// kTurn) and 4 rows ahead (AHEAD), and __launch_bounds__ room for
// 10 blocks (MIN_BLOCKS: 96 registers, 20 warps a multiprocessor);
// the settings renamed PIPELINE09_*, the names tests/pipeline/sweep.sh sets.
#ifndef PIPELINE08_ROWS
#define PIPELINE08_ROWS 16
#endif
#ifndef PIPELINE08_WARPS
#define PIPELINE08_WARPS 2
#endif
#ifndef PIPELINE08_AHEAD
#define PIPELINE08_AHEAD 2
#endif
// The blocks per multiprocessor that __launch_bounds__ asks the compiler to
// leave registers for: 0 asks for none (it picks the registers per thread);
// N caps them at 65536 / (N x 32 kWarps), a multiprocessor's registers shared
// by N blocks (65536 on compute capability 7.5 to 9.0).
#ifndef PIPELINE08_MIN_BLOCKS
#define PIPELINE08_MIN_BLOCKS 0
#endif

namespace pipeline {

inline namespace COURSE_KERNEL_COPY {

namespace {

using device::at;
using device::clamp_to;

constexpr int kLaneColumns = 4;                    // columns per lane: one 32-bit word of bytes
constexpr int kSpan = 32 * kLaneColumns;           // columns a warp covers
constexpr int kHalo = 1 + kRadius;                 // columns each side only feed others: Sobel 1, blur 3
constexpr int kOutputColumns = kSpan - 2 * kHalo;  // columns a warp writes
constexpr int kRows = PIPELINE08_ROWS;             // rows a warp writes, walking down
constexpr int kWarps = PIPELINE08_WARPS;           // warps per block, side by side
constexpr int kAhead = PIPELINE08_AHEAD;           // RGB rows loaded ahead of the row being computed
constexpr int kMinBlocks = PIPELINE08_MIN_BLOCKS;  // blocks per multiprocessor to leave registers for (0: any)
static_assert(kHalo == kLaneColumns, "lanes 0 and 31 hold exactly the halo columns of a warp's span");
// The walk is unrolled by a turn of kTurn rows, so that row t's slots in the
// column sums' rings (t % 4) and in the rows loaded ahead (t % kAhead) are
// constants, and the slots stay in registers.
static_assert(kAhead >= 1, "at least one RGB row is loaded ahead");
// TODO(step 09): a turn of lcm(12, kAhead) rows, a multiple of 3 as well: the
// windows up, mid and down then come back to their registers after a turn,
// and the compiler can move them down a row by renaming, not three copies.
constexpr int kTurn = std::lcm(4, kAhead);  // 4 rows for 1, 2 or 4 ahead; 8 for 8; 12 for 3 or 6
static_assert(kRows % kTurn == 0, "a strip is whole turns: kRows must be a multiple of lcm(4, kAhead)");

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

// Two 16-bit weights as one word, w0 the lower half: the weights dp2a takes.
constexpr unsigned halves(int w0, int w1) { return (w0 & 0xffffu) | (w1 & 0xffffu) << 16; }

// The greys of a lane's 4 pixels, one byte each, from their 12 RGB bytes
// r0 g0 b0 r1 | g1 b1 r2 g2 | b2 r3 g3 b3 in three words (rule 1). __dp2a
// multiplies two 16-bit weights with two bytes of a word (its low or high
// half) and adds: two of them give a pixel's 19585 r + 38457 g + 7494 b +
// 32768 wherever its bytes lie, and the grey is byte 2 of the sum.
__device__ __forceinline__ unsigned greys_of_words(unsigned w0, unsigned w1, unsigned w2) {
    const unsigned g0 = __dp2a_hi(halves(kGreyB, 0), w0, __dp2a_lo(halves(kGreyR, kGreyG), w0, 32768u));
    const unsigned g1 = __dp2a_hi(halves(0, kGreyR), w0, __dp2a_lo(halves(kGreyG, kGreyB), w1, 32768u));
    const unsigned g2 = __dp2a_hi(halves(kGreyR, kGreyG), w1, __dp2a_lo(halves(kGreyB, 0), w2, 32768u));
    const unsigned g3 = __dp2a_hi(halves(kGreyG, kGreyB), w2, __dp2a_lo(halves(0, kGreyR), w2, 32768u));
    return __byte_perm(__byte_perm(g0, g1, 0x0062), __byte_perm(g2, g3, 0x0062), 0x5410);
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
    return {__byte_perm(s0, s1, 0x5410), __byte_perm(s2, s3, 0x5410)};
}

// The 7-tap column pass as two 4-row box sums: the weights 1 2 3 4 3 2 1 are
// 1 1 1 1 convolved with itself. Walking down, each box sum is kept running
// (add the new row, subtract the one 4 rows up), so a row costs two
// additions per word however long the strip: box = x(t) + .. + x(t-3),
// blur = box(t) + .. + box(t-3) = x(t-6) + 2 x(t-5) + .. + x(t). The words
// hold two columns as 16-bit halves: a column's sum is at most 65280 + 128,
// so each half stays exact (the word is exact modulo 2^32 whatever the
// intermediate borrows between halves) and the blurred pixel, sum >> 8, is
// the half's high byte.
struct ColumnSums {
    unsigned rows[4];   // the last 4 row sums, slot t % 4 holding row t's until row t + 4 replaces it
    unsigned boxes[4];  // the last 4 box sums, likewise
    unsigned box = 0;   // box sum of the newest row
    unsigned blur = 0;  // weighted 7-row sum of the newest row

    __device__ __forceinline__ void push(unsigned row, int slot) {
        box += row - rows[slot];
        rows[slot] = row;
        blur += box - boxes[slot];
        boxes[slot] = box;
    }
};

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
// of the result. Capping s = gx^2 + gy^2 at 255^2 first caps the edge at
// 255. The square root is the SFU's approximate one, off by a few units in
// the last place at most, while the square root of a whole s is at least
// 0.25 / 511 from any half-integer (about 32 units in the last place at
// 255): rounding it gives the nearest integer exactly, as the grading's
// pixel-exact comparison with the CPU reference checks. Adding 1.5 x 2^23
// rounds to an integer in the float's low mantissa bits.
__device__ __forceinline__ unsigned edge_byte(unsigned up, unsigned mid, unsigned down) {
    const int gx = dot4_signed(up, bytes4(-1, 0, 1, 0),
                               dot4_signed(mid, bytes4(-2, 0, 2, 0), dot4_signed(down, bytes4(-1, 0, 1, 0), 0)));
    const int gy = dot4_signed(up, bytes4(1, 2, 1, 0), dot4_signed(down, bytes4(-1, -2, -1, 0), 0));
    const unsigned s = min(gx * gx + gy * gy, 255 * 255);
    float r;
    asm("sqrt.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(__uint2float_rn(s)));
    return __float_as_uint(r + 12582912.0f);
}

// How a warp walks its strip: whole words or bytes, rows clamped into the
// image or not (a strip away from the top and bottom).
template <bool kWords, bool kClampRows>
struct Way {
    static constexpr bool words = kWords, clamp_rows = kClampRows;
};

// What a lane carries down its strip.
struct Lane {
    ColumnSums lo, hi;          // the blur's column sums: columns 0, 1 and columns 2, 3
    Windows up, mid, down;      // the windows of the last three blurred rows
    unsigned last_blurred;      // the newest blurred row (the rows below the image repeat the last)
    unsigned ahead[kAhead][3];  // the RGB words of the next kAhead rows, loaded before they are needed
    // TODO(step 09): for the walk away from the image's top and bottom, a
    // pointer to the lane's RGB bytes in the row it loads next and one to its
    // edge bytes in the row it writes next.
};

template <bool kAligned>
__global__ void __launch_bounds__(32 * kWarps, kMinBlocks) fused_v9(Params p) {
    const int lane = threadIdx.x % 32;
    const int span = blockIdx.x * kWarps + threadIdx.x / 32;
    const int xw = span * kOutputColumns - kHalo;  // the warp's first column (a halo column)
    if (xw + kHalo >= p.width) return;             // a warp with no columns to write (whole warps only)
    const int xl = xw + kLaneColumns * lane;       // the lane's first column
    const int ys = blockIdx.y * kRows;             // the strip's first row
    // Whole words when the rows allow 4-byte loads and stores (kAligned) and
    // the warp's span lies inside the image (the same for the whole warp).
    const bool words = kAligned && xw >= 0 && xw + kSpan <= p.width;
    const bool writes = lane > 0 && lane < 31;

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

    // Grey row t of the walk is image row ys - kHalo + t. Strips that reach
    // past the top or the bottom clamp it (the border rule); the others skip
    // the clamps and the checks at the image's edges.
    const bool clamp_rows = ys < kHalo || ys + kRows + kHalo + kAhead > p.height;
    const auto image_row = [&](int t, auto way) {
        const int gy = ys - kHalo + t;
        return decltype(way)::clamp_rows ? clamp_to(gy, p.height) : gy;
    };
    const auto load_row = [&](int t, unsigned(&w)[3], auto way) {
        const unsigned* source = reinterpret_cast<const unsigned*>(p.rgb + at(3 * xl, image_row(t, way), p.rgb_pitch));
        w[0] = __ldg(source);
        w[1] = __ldg(source + 1);
        w[2] = __ldg(source + 2);
    };

    // Row t of the walk: grey row t, its row sums into the column sums, and
    // from t = 2 kRadius on the blurred row 3 above it; from t = 2 kHalo on,
    // the edge row one above that. `slot` is t % kTurn, a constant wherever
    // this is called (the loops below are unrolled by kTurn), so the rings and
    // the rows loaded ahead stay in registers. `way` is a type, Way<words,
    // clamp_rows>: each way gets a walk of its own with no branch per row (a
    // branch would make the compiler copy the rows loaded ahead into the same
    // registers on both sides, and the copy waits for the load).
    Lane s{};
    const auto row = [&](int t, int slot, auto way) {
        constexpr bool kWords = decltype(way)::words, kClampRows = decltype(way)::clamp_rows;
        unsigned greys;
        if constexpr (kWords) {
            unsigned(&w)[3] = s.ahead[slot % kAhead];
            const unsigned w0 = w[0], w1 = w[1], w2 = w[2];
            // TODO(step 09): without clamped rows, load through the lane's RGB
            // pointer and move it on by p.rgb_pitch (one 64-bit addition,
            // where at() works the row's address out again at every row).
            // Past the strip's last row this loads rows the strip does not need
            // (inside the image, or the last row again when clamped): harmless.
            load_row(t + kAhead, w, way);
            greys = greys_of_words(w0, w1, w2);
        } else {
            const std::uint8_t* rgb_row = p.rgb + at(0, image_row(t, way), p.rgb_pitch);
            greys = 0;
            for (int c = 0; c < 4; ++c) {
                const std::uint8_t* px = rgb_row + 3 * clamp_to(xl + c, p.width);
                greys |= static_cast<unsigned>(grey_of(__ldg(px), __ldg(px + 1), __ldg(px + 2))) << 8 * c;
            }
        }
        const RowSums sums =
            row_pass(__shfl_up_sync(0xffffffffu, greys, 1), greys, __shfl_down_sync(0xffffffffu, greys, 1));
        s.lo.push(sums.lo, slot % 4);
        s.hi.push(sums.hi, slot % 4);
        if (t < 2 * kRadius) return;

        // Blurred row by = gy - 3, its high bytes packed into one word; the
        // row below the image is the last row again (the Sobel's border).
        const int by = ys - kHalo + t - kRadius;
        unsigned blurred = __byte_perm(s.lo.blur, s.hi.blur, 0x7531);
        if constexpr (kClampRows) {
            if (by >= p.height) blurred = s.last_blurred;
            s.last_blurred = blurred;
        }
        s.up = s.mid;
        s.mid = s.down;
        const unsigned left = __shfl_up_sync(0xffffffffu, blurred, 1);
        const unsigned right = __shfl_down_sync(0xffffffffu, blurred, 1);
        if constexpr (kWords) {
            // A span inside the image clamps no column: its selectors are constants.
            constexpr unsigned kInside[4] = {0x543, 0x654, 0x321, 0x432};
            s.down = windows_of(left, blurred, right, kInside);
        } else {
            s.down = windows_of(left, blurred, right, sel);
        }
        if (kClampRows && t == 2 * kRadius + 1 && ys == 0) s.mid = s.down;  // the row above the image is row 0
        if (t < 2 * kHalo) return;

        // Edge row y = by - 1.
        const int y = by - 1;
        const unsigned e0 = edge_byte(s.up.w[0], s.mid.w[0], s.down.w[0]);
        const unsigned e1 = edge_byte(s.up.w[1], s.mid.w[1], s.down.w[1]);
        const unsigned e2 = edge_byte(s.up.w[2], s.mid.w[2], s.down.w[2]);
        const unsigned e3 = edge_byte(s.up.w[3], s.mid.w[3], s.down.w[3]);
        // TODO(step 09): without clamped rows, take `out` from the lane's edge
        // pointer and move it on by p.pitch, before the return (the lanes
        // that do not write move theirs too).
        if (!writes || (kClampRows && y >= p.height)) return;
        std::uint8_t* out = p.out + at(xl, y, p.pitch);
        if constexpr (kWords) {
            *reinterpret_cast<unsigned*>(out) =
                __byte_perm(__byte_perm(e0, e1, 0x0040), __byte_perm(e2, e3, 0x0040), 0x5410);
        } else {
            const unsigned e[4] = {e0, e1, e2, e3};
            for (int c = 0; c < 4; ++c)
                if (xl + c >= 0 && xl + c < p.width) out[c] = static_cast<std::uint8_t>(e[c]);
        }
    };

    const auto walk = [&](auto way) {
        if constexpr (decltype(way)::words) {
#pragma unroll
            for (int a = 0; a < kAhead; ++a) load_row(a, s.ahead[a], way);
            // TODO(step 09): without clamped rows, set the two pointers: RGB row
            // kAhead of the walk, edge row ys (the row that row 2 kHalo writes).
        }
        // The first 2 kHalo rows only fill the column sums and windows.
#pragma unroll
        for (int t = 0; t < 2 * kHalo; ++t) row(t, t % kTurn, way);
        // Then a turn of kTurn rows at a time, to the strip's last row or the
        // image's (a strip's rows are whole turns; at the image's last rows a
        // turn may run past them, below the image: clamped, nothing written).
        const int last = 2 * kHalo + min(kRows, p.height - ys);
#pragma unroll 1
        for (int t0 = 2 * kHalo; t0 < last; t0 += kTurn)
#pragma unroll
            for (int j = 0; j < kTurn; ++j) row(t0 + j, (2 * kHalo + j) % kTurn, way);
    };
    if (!words)
        walk(Way<false, true>{});
    else if (clamp_rows)
        walk(Way<true, true>{});
    else
        walk(Way<true, false>{});
}

}  // namespace

void step09_lean_walk(const Params& p, cudaStream_t stream) {
    const dim3 grid = grid_for(p, kOutputColumns * kWarps, kRows);
    // The alignment is the same for the whole image: a kernel per case.
    if (rows_aligned(p, 4))
        fused_v9<true><<<grid, 32 * kWarps, 0, stream>>>(p);
    else
        fused_v9<false><<<grid, 32 * kWarps, 0, stream>>>(p);
    CUDA_CHECK_LAUNCH();
}

}  // namespace COURSE_KERNEL_COPY

}  // namespace pipeline
