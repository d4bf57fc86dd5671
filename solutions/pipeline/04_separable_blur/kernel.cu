// Step 04: the blur as a row pass and a column pass.
//
// After step 03 the Gaussian is still the longest kernel, and its profile
// says compute and bandwidth bound (on an H100: SM 76%, L1/shared 78%): the
// 49 multiply-adds and 49 shared loads per pixel. The talk's 7x7 weights are
// an outer product, w(i) w(j), so the sum
// splits: first each row of the tile is filtered with 1 2 3 4 3 2 1 (7 taps),
// then each column of those row sums (7 taps): 14 multiply-adds per pixel
// instead of 49, and exactly the same integer. The row sums of the whole
// tile height (14 rows of 32) go into a second shared array, each thread
// computing one or two, and a __syncthreads() separates the passes. A row
// sum is at most 16 x 255 = 4080, a column of them 65280: both fit the ints
// and the rounding is the same as before.
#include "tracks/pipeline/device.cuh"

#include "course/check.h"

namespace pipeline {

inline namespace COURSE_KERNEL_COPY {

namespace {

using device::at;
using device::clamped;

constexpr int kBlockX = 32, kBlockY = 8;  // the blur's and the Sobel's blocks: one tile each

__global__ void grey_v4(Params p) {
    const int x = blockIdx.x * blockDim.x + threadIdx.x;
    const int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= p.width || y >= p.height) return;
    const std::uint8_t* rgb = p.rgb + at(3 * x, y, p.rgb_pitch);
    p.grey[at(x, y, p.pitch)] = static_cast<std::uint8_t>(grey_of(rgb[0], rgb[1], rgb[2]));
}

// Copies the (kBlockX + 2 r) x (kBlockY + 2 r) pixels of `image` around this
// block's pixels into `tile`, each clamped into the image, all threads
// sharing the work; then waits for the whole block.
template <int r>
__device__ void load_tile(const std::uint8_t* image, const Params& p, std::uint8_t (*tile)[kBlockX + 2 * r]) {
    constexpr int kWidth = kBlockX + 2 * r, kHeight = kBlockY + 2 * r;
    const int x0 = blockIdx.x * kBlockX - r, y0 = blockIdx.y * kBlockY - r;
    for (int i = threadIdx.y * kBlockX + threadIdx.x; i < kWidth * kHeight; i += kBlockX * kBlockY)
        tile[i / kWidth][i % kWidth] = clamped(image, p, x0 + i % kWidth, y0 + i / kWidth);
    __syncthreads();
}

__global__ void gaussian_v4(Params p) {
    __shared__ std::uint8_t tile[kBlockY + 2 * kRadius][kBlockX + 2 * kRadius];
    __shared__ int rows[kBlockY + 2 * kRadius][kBlockX];  // each tile row filtered along x
    load_tile<kRadius>(p.grey, p, tile);
    // The row pass, over the tile's full height: the column pass needs the
    // halo rows' sums too.
    for (int i = threadIdx.y * kBlockX + threadIdx.x; i < (kBlockY + 2 * kRadius) * kBlockX; i += kBlockX * kBlockY) {
        const int ty = i / kBlockX, tx = i % kBlockX;
        int sum = 0;
        for (int k = 0; k < kTaps; ++k) sum += gauss_weight(k - kRadius) * tile[ty][tx + k];
        rows[ty][tx] = sum;
    }
    __syncthreads();
    const int x = blockIdx.x * kBlockX + threadIdx.x;
    const int y = blockIdx.y * kBlockY + threadIdx.y;
    if (x >= p.width || y >= p.height) return;
    int sum = 0;
    for (int k = 0; k < kTaps; ++k) sum += gauss_weight(k - kRadius) * rows[threadIdx.y + k][threadIdx.x];
    p.blurred[at(x, y, p.pitch)] = static_cast<std::uint8_t>(blur_of(sum));
}

__global__ void sobel_v4(Params p) {
    __shared__ std::uint8_t tile[kBlockY + 2][kBlockX + 2];
    load_tile<1>(p.blurred, p, tile);
    const int x = blockIdx.x * kBlockX + threadIdx.x;
    const int y = blockIdx.y * kBlockY + threadIdx.y;
    if (x >= p.width || y >= p.height) return;
    const auto b = [&](int dx, int dy) { return static_cast<int>(tile[threadIdx.y + 1 + dy][threadIdx.x + 1 + dx]); };
    const int gx = b(1, -1) + 2 * b(1, 0) + b(1, 1) - b(-1, -1) - 2 * b(-1, 0) - b(-1, 1);
    const int gy = b(-1, -1) + 2 * b(0, -1) + b(1, -1) - b(-1, 1) - 2 * b(0, 1) - b(1, 1);
    p.out[at(x, y, p.pitch)] = edge_of(gx, gy);
}

constexpr int kGreyX = 32, kGreyY = 2;  // step 02's shape: the grey kernel has no neighbours to share

}  // namespace

void step04_separable_blur(const Params& p, cudaStream_t stream) {
    grey_v4<<<grid_for(p, kGreyX, kGreyY), dim3(kGreyX, kGreyY), 0, stream>>>(p);
    CUDA_CHECK_LAUNCH();
    const dim3 grid = grid_for(p, kBlockX, kBlockY), block(kBlockX, kBlockY);
    gaussian_v4<<<grid, block, 0, stream>>>(p);
    CUDA_CHECK_LAUNCH();
    sobel_v4<<<grid, block, 0, stream>>>(p);
    CUDA_CHECK_LAUNCH();
}

}  // namespace COURSE_KERNEL_COPY

}  // namespace pipeline
