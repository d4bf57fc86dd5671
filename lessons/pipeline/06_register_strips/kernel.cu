// Image pipeline, step 06: the fused kernel in registers: a warp walks down
// a strip of rows, 4 pixels per lane, the halo from the neighbouring lanes
// by __shfl. (your starting point: step 05's solution)
//
// Do the TODO(step 06)s; README.md in this folder explains the change and
// what the profile says. Run with
//     meson compile -C build pipeline-06 && build/lessons/pipeline-06
#include "tracks/pipeline/device.cuh"

#include "course/check.h"

namespace pipeline {

inline namespace COURSE_KERNEL_COPY {

namespace {

using device::at;
using device::clamp_to;
using device::grey_at;

// TODO(step 06): the strip kernel replaces the tiles below (README.md walks
// through it). A warp owns a span of 128 columns, each lane 4 of them, and
// walks down a strip of 16 rows; lanes 0 and 31 only compute the halo, so a
// warp writes 120 columns. Per grey row: the lane's 12 RGB bytes (three
// 4-byte loads where rows_aligned allows and the span is inside the image,
// else bytes at clamped columns), its 4 greys, the neighbours' greys by
// __shfl_up_sync / __shfl_down_sync, the 4 row sums; the last 7 row sums
// and the last 3 blurred rows stay in registers (arrays indexed by
// constants only), the neighbours' blurred pixels again by __shfl.
constexpr int kBlockX = 32, kBlockY = 8;                   // one edge pixel per thread
constexpr int kBlurX = kBlockX + 2, kBlurY = kBlockY + 2;  // the blurred tile: the Sobel's 1-pixel halo
constexpr int kGreyX = kBlurX + 2 * kRadius, kGreyY = kBlurY + 2 * kRadius;  // the grey tile: the blur's halo too

// TODO(step 06): the kernel's new body, one loop down the strip: see the
// TODO above; it takes `bool aligned` (rows_aligned(p, 4)) too.
__global__ void fused_v6(Params p) {
    __shared__ std::uint8_t grey[kGreyY][kGreyX];
    __shared__ int rows[kGreyY][kBlurX];
    __shared__ std::uint8_t blurred[kBlurY][kBlurX];
    const int thread = threadIdx.y * kBlockX + threadIdx.x;
    constexpr int kThreads = kBlockX * kBlockY;
    const int x0 = blockIdx.x * kBlockX, y0 = blockIdx.y * kBlockY;  // the block's first edge pixel
    const int gx0 = x0 - 1 - kRadius, gy0 = y0 - 1 - kRadius;        // the grey tile's first pixel

    // 1. Greys, from the RGB image, at clamped coordinates.
    for (int i = thread; i < kGreyX * kGreyY; i += kThreads)
        grey[i / kGreyX][i % kGreyX] = static_cast<std::uint8_t>(grey_at(p, gx0 + i % kGreyX, gy0 + i / kGreyX));
    __syncthreads();

    // 2. Row sums for the blurred tile's columns, over every grey row. c is
    //    the grey-tile column of the (clamped) pixel the sum is centred on.
    for (int i = thread; i < kBlurX * kGreyY; i += kThreads) {
        const int r = i / kBlurX, k = i % kBlurX;
        const int c = clamp_to(x0 - 1 + k, p.width) - gx0;
        int sum = 0;
        for (int t = 0; t < kTaps; ++t) sum += gauss_weight(t - kRadius) * grey[r][c - kRadius + t];
        rows[r][k] = sum;
    }
    __syncthreads();

    // 3. The blurred tile, from the row sums; row s is centred on the
    //    grey-tile row of the (clamped) pixel.
    for (int i = thread; i < kBlurX * kBlurY; i += kThreads) {
        const int s = i / kBlurX, k = i % kBlurX;
        const int c = clamp_to(y0 - 1 + s, p.height) - gy0;
        int sum = 0;
        for (int t = 0; t < kTaps; ++t) sum += gauss_weight(t - kRadius) * rows[c - kRadius + t][k];
        blurred[s][k] = static_cast<std::uint8_t>(blur_of(sum));
    }
    __syncthreads();

    // 4. The edge of this thread's pixel. The blurred tile holds clamped
    //    pixels, so the neighbours of a pixel on the border are right too.
    const int x = x0 + threadIdx.x, y = y0 + threadIdx.y;
    if (x >= p.width || y >= p.height) return;
    const auto b = [&](int dx, int dy) {
        return static_cast<int>(blurred[threadIdx.y + 1 + dy][threadIdx.x + 1 + dx]);
    };
    const int gx = b(1, -1) + 2 * b(1, 0) + b(1, 1) - b(-1, -1) - 2 * b(-1, 0) - b(-1, 1);
    const int gy = b(-1, -1) + 2 * b(0, -1) + b(1, -1) - b(-1, 1) - 2 * b(0, 1) - b(1, 1);
    p.out[at(x, y, p.pitch)] = edge_of(gx, gy);
}

}  // namespace

void step06_register_strips(const Params& p, cudaStream_t stream) {
    // TODO(step 06): blocks of 2 warps side by side (2 spans of 120 written
    // columns) over strips of 16 rows; pass rows_aligned(p, 4) to the kernel.
    fused_v6<<<grid_for(p, kBlockX, kBlockY), dim3(kBlockX, kBlockY), 0, stream>>>(p);
    CUDA_CHECK_LAUNCH();
}

}  // namespace COURSE_KERNEL_COPY

}  // namespace pipeline
