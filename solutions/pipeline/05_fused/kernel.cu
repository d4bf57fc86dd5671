// Step 05: one kernel from RGB to edges; the grey and blurred tiles stay in
// shared memory.
//
// After step 04 no single kernel dominates: the grey kernel (latency bound,
// untouched since step 01) takes as long as the blur, and the three together
// pass the image through DRAM six times: RGB in (3 bytes a pixel), grey out
// and in again, blurred out and in again, edges out, with a launch and a
// wait between the stages. Fused, a block reads the RGB pixels its tile
// needs and writes its edges, nothing else: 4 bytes a pixel.
// The block of 32x8 threads makes, in shared memory,
//   1. the greys of a 40x16 tile: its 32x8 edge pixels, 1 more each way for
//      the Sobel, 3 more for the blur, each grey computed from RGB here;
//   2. the row sums of the 34 columns the blurred tile needs, for 16 rows;
//   3. the blurred 34x10 tile, from the row sums (step 04's two passes);
// and then each thread computes its edge pixel from the blurred tile.
// The halo is recomputed by the neighbouring blocks: 40x16 greys for 32x8
// pixels, 2.5x the arithmetic of the grey stage, a price worth paying for
// not writing and reading the intermediate images.
//
// The border: every tile entry holds the value at its clamped coordinates
// (tracks/pipeline/kernels.h), so each stage reads its tile without testing
// anything. Column k of the blurred tile is the blurred pixel at the clamped
// column, computed from the greys around that column in the grey tile.
#include "tracks/pipeline/device.cuh"

#include "course/check.h"

namespace pipeline {

inline namespace COURSE_KERNEL_COPY {

namespace {

using device::at;
using device::clamp_to;
using device::grey_at;

constexpr int kBlockX = 32, kBlockY = 8;                   // one edge pixel per thread
constexpr int kBlurX = kBlockX + 2, kBlurY = kBlockY + 2;  // the blurred tile: the Sobel's 1-pixel halo
constexpr int kGreyX = kBlurX + 2 * kRadius, kGreyY = kBlurY + 2 * kRadius;  // the grey tile: the blur's halo too

__global__ void fused_v5(Params p) {
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

void step05_fused(const Params& p, cudaStream_t stream) {
    fused_v5<<<grid_for(p, kBlockX, kBlockY), dim3(kBlockX, kBlockY), 0, stream>>>(p);
    CUDA_CHECK_LAUNCH();
}

}  // namespace COURSE_KERNEL_COPY

}  // namespace pipeline
