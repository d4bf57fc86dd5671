// Step 05 (beyond the slides): no texture, no shared memory. Each thread
// owns a strip of 16 columns and slides down kRows rows of it, the three
// rows of its window held in registers.
//
// A row of the strip is one 16-byte load; the two pixels beside it (x0 - 1
// and x0 + 16) are two byte loads, which hit in L1: the threads beside this
// one load them in their own 16 bytes. A warp's 32 strips are 512
// consecutive bytes of a row, four whole cache lines, and its stores are
// 16 bytes per thread too. Going down, each row is loaded once and used by
// three output rows, as in step 04's shared-memory window, but the window
// never leaves the registers: no tile, no barrier. The row below the window
// is loaded one row ahead, while the current row is computed, so each
// thread keeps a load in flight.
//
// The arithmetic is the same rule in another order. With each column's
// weighted sum (top + 2 middle + bottom) and difference (top - bottom),
//   Horz(x) = sum(x + 1) - sum(x - 1)
//   Vert(x) = diff(x - 1) + 2 diff(x) + diff(x + 1)
// so the 18 columns' sums and differences, computed once, serve the 16
// pixels.
//
// 16-byte accesses need 16-byte aligned rows (rows_aligned); for other
// pitches, and for the strip at the right edge of an image whose width is
// not a multiple of 16, the kernel loads and stores byte by byte.
#include "tracks/sobel/device.cuh"

#include "course/check.h"

namespace sobel {

inline namespace COURSE_KERNEL_COPY {

namespace {

using device::byte_of;
using device::clamp_to;
using device::clamped_row;
using device::set_byte;
using device::store_word;

constexpr int kStrip = 16;     // columns per thread: one 16-byte word
constexpr int kThreadsX = 32;  // a warp side by side: 512 consecutive bytes of a row
constexpr int kThreadsY = 4;
constexpr int kRows = 8;  // output rows per thread: (kRows + 2) row loads for kRows rows
static_assert(kStrip == static_cast<int>(sizeof(uint4)), "a strip is one 16-byte word");

// One row of a strip as loaded: its 16 bytes and the pixels on either side.
struct StripRow {
    uint4 word;
    int left, right;  // columns x0 - 1 and x0 + 16, clamped into the image
};

// Row y (clamped into the image) of the strip that starts at column x0.
template <bool kAligned>
__device__ __forceinline__ StripRow load_row(const Params& p, int x0, int y) {
    const std::uint8_t* row = clamped_row(p.in, y, p.height, p.pitch);
    StripRow loaded{};
    if (kAligned && x0 + kStrip <= p.width) {
        loaded.word = *reinterpret_cast<const uint4*>(row + x0);
    } else {
#pragma unroll
        for (int i = 0; i < kStrip; ++i) set_byte(loaded.word, i, row[clamp_to(x0 + i, p.width)]);
    }
    loaded.left = row[clamp_to(x0 - 1, p.width)];
    loaded.right = row[clamp_to(x0 + kStrip, p.width)];
    return loaded;
}

// Columns x0 - 1 .. x0 + 16 of a loaded row, one int each.
__device__ __forceinline__ void unpack(const StripRow& row, int (&columns)[kStrip + 2]) {
    columns[0] = row.left;
#pragma unroll
    for (int i = 0; i < kStrip; ++i) columns[i + 1] = byte_of(row.word, i);
    columns[kStrip + 1] = row.right;
}

template <bool kAligned>
__global__ void __launch_bounds__(kThreadsX* kThreadsY) register_strips(Params p) {
    const int x0 = (blockIdx.x * kThreadsX + threadIdx.x) * kStrip;
    const int y0 = (blockIdx.y * kThreadsY + threadIdx.y) * kRows;
    if (x0 >= p.width || y0 >= p.height) return;

    // Rows past the image's edges are clamped into it: loading them is safe,
    // so no load needs a condition.
    int up[kStrip + 2], middle[kStrip + 2], down[kStrip + 2];
    unpack(load_row<kAligned>(p, x0, y0 - 1), up);
    unpack(load_row<kAligned>(p, x0, y0), middle);
    StripRow next = load_row<kAligned>(p, x0, y0 + 1);
#pragma unroll
    for (int r = 0; r < kRows; ++r) {
        unpack(next, down);
        if (r + 1 < kRows) next = load_row<kAligned>(p, x0, y0 + r + 2);  // in flight while this row is computed

        int sum[kStrip + 2], diff[kStrip + 2];
#pragma unroll
        for (int c = 0; c < kStrip + 2; ++c) {
            sum[c] = up[c] + 2 * middle[c] + down[c];
            diff[c] = up[c] - down[c];
        }
        uint4 out;
#pragma unroll
        for (int i = 0; i < kStrip; ++i) {
            const int horz = sum[i + 2] - sum[i];
            const int vert = diff[i] + 2 * diff[i + 1] + diff[i + 2];
            const int magnitude = abs(horz) + abs(vert);
            set_byte(out, i, static_cast<std::uint8_t>(min(magnitude, 255)));
        }
        const int y = y0 + r;
        if (y < p.height) store_word<kAligned>(p.out + static_cast<std::size_t>(y) * p.pitch, x0, p.width, out);
#pragma unroll
        for (int c = 0; c < kStrip + 2; ++c) {
            up[c] = middle[c];
            middle[c] = down[c];
        }
    }
}

}  // namespace

void step05_register_strips(const Params& p, cudaStream_t stream) {
    const auto kernel = rows_aligned(p, kStrip) ? register_strips<true> : register_strips<false>;
    const dim3 grid = grid_for(p, kThreadsX * kStrip, kThreadsY * kRows);
    kernel<<<grid, dim3(kThreadsX, kThreadsY), 0, stream>>>(p);
    CUDA_CHECK_LAUNCH();
}

}  // namespace COURSE_KERNEL_COPY

}  // namespace sobel
