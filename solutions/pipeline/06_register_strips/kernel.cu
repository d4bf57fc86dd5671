// Step 06: the fused kernel in registers: strips of rows, 4 pixels per lane,
// the halo from the neighbouring lanes.
//
// Step 05 is compute bound: its SM is busy with shared-memory loads and
// stores, three tile loops' index arithmetic and barriers, and it recomputes
// a 40x16 grey tile for 32x8 pixels. This step keeps its one pass from RGB to
// edges but holds everything in registers:
//  * A warp owns a span of 128 columns, each lane 4 of them, and walks down a
//    strip of kRows rows. Lanes 0 and 31 compute only the halo (the blur's 3
//    columns and the Sobel's 1): a warp writes 120 columns.
//  * Each grey row is computed once per strip. A lane's 12 RGB bytes are
//    three 4-byte loads where the rows allow it (else bytes, at clamped
//    columns), and each edge row one 4-byte store.
//  * The columns around a lane's 4 come from its neighbours, by __shfl: their
//    greys for the blur's row pass, their blurred pixels for the Sobel.
//  * Walking down, the rows above stay in registers: the last 7 row sums for
//    the blur's column pass, the last 3 blurred rows for the Sobel. The
//    strip's first 8 rows are its only recomputed halo.
// The arithmetic is still one pixel and one tap at a time, as in step 05.
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
static_assert(kHalo == kLaneColumns, "lanes 0 and 31 hold exactly the halo columns of a warp's span");

// Byte i of the 12 bytes [left, mine, right]: the lane's own 4 columns are
// bytes 4..7, its left neighbour's 0..3, its right neighbour's 8..11. With a
// constant i (the unrolled loops below) it is one shift and mask; with a
// lane's own i it stays in registers (a choice of word, not an array index,
// which would put the words in local memory).
__device__ __forceinline__ int byte_at(unsigned left, unsigned mine, unsigned right, int i) {
    const unsigned word = i < 4 ? left : i < 8 ? mine : right;
    return static_cast<int>((word >> 8 * (i & 3)) & 0xffu);
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
    const bool writes = lane > 0 && lane < 31;

    // The Sobel reads blurred pixels at clamped columns (the border rule):
    // column k of the lane's window (k = 0..5: columns xl - 1 .. xl + 4) is
    // byte source[k] of the blurred words [left, mine, right].
    int source[kLaneColumns + 2];
    for (int k = 0; k < kLaneColumns + 2; ++k) source[k] = clamp_to(xl + k - 1, p.width) - (xl - kLaneColumns);

    int sums[kTaps][kLaneColumns] = {};    // the last 7 rows' row sums, sums[kTaps - 1] the newest
    int window[3][kLaneColumns + 2] = {};  // the last 3 blurred rows at the window's columns: up, mid, down
    unsigned last_blurred = 0;             // the newest blurred row (the rows below the image repeat the last)

    // Grey row t of the walk is image row ys - kHalo + t, clamped into the
    // image (the border rule). 2 kHalo more grey rows than edge rows: the
    // blur's 3 and the Sobel's 1 above and below.
    const int rows = 2 * kHalo + min(kRows, p.height - ys);
    for (int t = 0; t < rows; ++t) {
        const int image_row = clamp_to(ys - kHalo + t, p.height);

        // The greys of the lane's 4 columns, one byte each.
        unsigned greys = 0;
        if (words) {
            const unsigned* source_words =
                reinterpret_cast<const unsigned*>(p.rgb + at(3 * xl, image_row, p.rgb_pitch));
            const unsigned w[3] = {__ldg(source_words), __ldg(source_words + 1), __ldg(source_words + 2)};
            for (int c = 0; c < kLaneColumns; ++c) {
                const int r = byte_at(w[0], w[1], w[2], 3 * c), g = byte_at(w[0], w[1], w[2], 3 * c + 1),
                          b = byte_at(w[0], w[1], w[2], 3 * c + 2);
                greys |= static_cast<unsigned>(grey_of(r, g, b)) << 8 * c;
            }
        } else {
            const std::uint8_t* rgb_row = p.rgb + at(0, image_row, p.rgb_pitch);
            for (int c = 0; c < kLaneColumns; ++c) {
                const std::uint8_t* px = rgb_row + 3 * clamp_to(xl + c, p.width);
                greys |= static_cast<unsigned>(grey_of(__ldg(px), __ldg(px + 1), __ldg(px + 2))) << 8 * c;
            }
        }

        // The row pass: column c's sum takes the greys at c - 3 .. c + 3,
        // bytes c + 1 .. c + 7 of [left, mine, right]. Lanes 0 and 31 get
        // no real neighbour on one side: their sums are halo, never written.
        const unsigned left = __shfl_up_sync(0xffffffffu, greys, 1);
        const unsigned right = __shfl_down_sync(0xffffffffu, greys, 1);
        for (int j = 0; j + 1 < kTaps; ++j)
            for (int c = 0; c < kLaneColumns; ++c) sums[j][c] = sums[j + 1][c];
        for (int c = 0; c < kLaneColumns; ++c) {
            int sum = 0;
            for (int i = -kRadius; i <= kRadius; ++i)
                sum += gauss_weight(i) * byte_at(left, greys, right, kLaneColumns + c + i);
            sums[kTaps - 1][c] = sum;
        }
        if (t < 2 * kRadius) continue;

        // The column pass: blurred row by, 3 rows above grey row t, from the
        // last 7 row sums; a row below the image is the last row again (the
        // Sobel's border).
        const int by = ys - kHalo + t - kRadius;
        unsigned blurred = 0;
        for (int c = 0; c < kLaneColumns; ++c) {
            int sum = 0;
            for (int j = 0; j < kTaps; ++j) sum += gauss_weight(j - kRadius) * sums[j][c];
            blurred |= static_cast<unsigned>(blur_of(sum)) << 8 * c;
        }
        if (by >= p.height) blurred = last_blurred;
        last_blurred = blurred;
        const unsigned blurred_left = __shfl_up_sync(0xffffffffu, blurred, 1);
        const unsigned blurred_right = __shfl_down_sync(0xffffffffu, blurred, 1);
        for (int k = 0; k < kLaneColumns + 2; ++k) {
            window[0][k] = window[1][k];
            window[1][k] = window[2][k];
            window[2][k] = byte_at(blurred_left, blurred, blurred_right, source[k]);
        }
        // The row above the image is row 0.
        if (t == 2 * kRadius + 1 && ys == 0)
            for (int k = 0; k < kLaneColumns + 2; ++k) window[1][k] = window[2][k];
        if (t < 2 * kHalo) continue;

        // Edge row y = by - 1, from the 3x3 windows around each column.
        const int y = by - 1;
        unsigned edges = 0;
        for (int c = 0; c < kLaneColumns; ++c) {
            const auto b = [&](int dx, int dy) { return window[1 + dy][c + 1 + dx]; };
            const int gx = b(1, -1) + 2 * b(1, 0) + b(1, 1) - b(-1, -1) - 2 * b(-1, 0) - b(-1, 1);
            const int gy = b(-1, -1) + 2 * b(0, -1) + b(1, -1) - b(-1, 1) - 2 * b(0, 1) - b(1, 1);
            edges |= static_cast<unsigned>(edge_of(gx, gy)) << 8 * c;
        }
        if (!writes || y >= p.height) continue;
        std::uint8_t* out = p.out + at(xl, y, p.pitch);
        if (words) {
            *reinterpret_cast<unsigned*>(out) = edges;
        } else {
            for (int c = 0; c < kLaneColumns; ++c)
                if (xl + c >= 0 && xl + c < p.width) out[c] = static_cast<std::uint8_t>(edges >> 8 * c);
        }
    }
}

}  // namespace

void step06_register_strips(const Params& p, cudaStream_t stream) {
    const dim3 grid = grid_for(p, kOutputColumns * kWarps, kRows);
    fused_v6<<<grid, 32 * kWarps, 0, stream>>>(p, rows_aligned(p, 4));
    CUDA_CHECK_LAUNCH();
}

}  // namespace COURSE_KERNEL_COPY

}  // namespace pipeline
