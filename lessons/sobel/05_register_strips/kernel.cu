// Sobel, step 05: no texture, no shared memory: each thread a strip of 16
// columns, sliding down its rows with the window in registers, two pixels
// per instruction in half2. (your starting point: step 04's solution, its
// tile read from global memory with pixel() instead of the texture, and no
// texture description)
//
// Do the TODO(step 05)s; README.md in this folder explains why. Run with
//     meson compile -C build sobel-05 && build/lessons/sobel-05
#include "tracks/sobel/device.cuh"

#include "course/check.h"

namespace sobel {

inline namespace COURSE_KERNEL_COPY {

namespace {

// TODO(step 05): no texture and no shared memory: the strips read global
// memory (clamped_row, clamp_to, set_byte and store_word, from
// tracks/sobel/device.cuh).
using device::pixel;

// TODO(step 05): the strips' shape, in place of step 04's tile constants
// below: kStrip = 16 columns per thread (one uint4), kThreadsX = 32 by
// kThreadsY = 4 threads per block, kRows = 4 output rows per thread. Each
// row of a strip: one 16-byte load and the two pixels beside it, the next
// row loaded while this one is computed. The arithmetic on __half2 column
// pairs (#include <cuda_fp16.h>), two pixels per instruction: see the README
// for the byte-to-half trick (0x6400).
constexpr int kTileWidth = 64;     // threads per block along x, one column each
constexpr int kThreadRows = 4;     // threads per block along y
constexpr int kRowsPerThread = 8;  // the run of rows each thread computes
constexpr int kTileHeight = kThreadRows * kRowsPerThread;
constexpr int kSharedWidth = kTileWidth + 2;  // the tile and its apron: one pixel on each side
constexpr int kSharedHeight = kTileHeight + 2;
static_assert(kTileWidth % 32 == 0, "a warp must lie along one row of the tile, so that its reads and stores are "
                                    "consecutive bytes");

__global__ void register_strips(Params p) {
    __shared__ std::uint8_t tile[kSharedHeight][kSharedWidth];
    const int x0 = blockIdx.x * kTileWidth, y0 = blockIdx.y * kTileHeight;

    // TODO(step 05): step 04's tile and its apron, each pixel read once with
    // pixel(), which clamps coordinates outside the image.
    constexpr int kThreads = kTileWidth * kThreadRows;
    for (int i = threadIdx.y * kTileWidth + threadIdx.x; i < kSharedHeight * kSharedWidth; i += kThreads) {
        const int r = i / kSharedWidth, c = i % kSharedWidth;
        // TODO(step 05): from global memory for now (this step has no
        // texture); replace the whole kernel with the strips.
        tile[r][c] = static_cast<std::uint8_t>(pixel(p, x0 + c - 1, y0 + r - 1));
    }
    __syncthreads();

    const int c = threadIdx.x + 1;                 // this thread's column in the tile
    const int top = threadIdx.y * kRowsPerThread;  // the window's top row in the tile
    const int x = x0 + threadIdx.x;
    int ul = tile[top][c - 1], um = tile[top][c], ur = tile[top][c + 1];
    int ml = tile[top + 1][c - 1], mm = tile[top + 1][c], mr = tile[top + 1][c + 1];
#pragma unroll
    for (int r = 0; r < kRowsPerThread; ++r) {
        const int ll = tile[top + r + 2][c - 1], lm = tile[top + r + 2][c], lr = tile[top + r + 2][c + 1];
        const int y = y0 + top + r;
        if (x < p.width && y < p.height)
            p.out[static_cast<std::size_t>(y) * p.pitch + x] = edge_magnitude(ul, um, ur, ml, mr, ll, lm, lr);
        // Slide down one row: the middle row becomes the top, the new row the middle.
        ul = ml, um = mm, ur = mr;
        ml = ll, mm = lm, mr = lr;
    }
}

}  // namespace

// TODO(step 05): no texture description: this step reads global memory.
void step05_register_strips(const Params& p, cudaStream_t stream) {
    // TODO(step 05): register_strips<true> when rows_aligned(p, kStrip)
    // (16-byte loads and stores), register_strips<false> otherwise (bytes);
    // grid_for(p, kThreadsX * kStrip, kThreadsY * kRows).
    register_strips<<<grid_for(p, kTileWidth, kTileHeight), dim3(kTileWidth, kThreadRows), 0, stream>>>(p);
    CUDA_CHECK_LAUNCH();
}

}  // namespace COURSE_KERNEL_COPY

}  // namespace sobel
