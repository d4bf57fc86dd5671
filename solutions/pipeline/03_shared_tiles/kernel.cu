// Step 03: the blur and the Sobel read shared-memory tiles.
//
// Step 02's Gaussian makes 49 global loads per pixel, and its neighbours
// load 48 of the same bytes again: the profile calls it compute bound (on an
// H100: SM 73.5% of peak, DRAM 2.4%), with 910M warp instructions, the
// loads and their clamped addresses most of them. Here a block of
// 32x8 threads first copies the greys its 32x8 pixels need, a 38x14 tile with
// the 3-pixel halo, into shared memory, every thread a few of them, with the
// border clamped as it loads; after __syncthreads() each thread reads its 49
// greys from the tile. The Sobel does the same with a 34x10 tile of blurred
// bytes. The taller block (8 rows instead of 2) keeps the halo small: a
// 32x2 block would load 38x8 greys for 64 pixels. grey_v3 is step 02's.
#include "tracks/pipeline/device.cuh"

#include "course/check.h"

namespace pipeline {

inline namespace COURSE_KERNEL_COPY {

namespace {

using device::at;
using device::clamped;

constexpr int kBlockX = 32, kBlockY = 8;  // the blur's and the Sobel's blocks: one tile each

__global__ void grey_v3(Params p) {
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

__global__ void gaussian_v3(Params p) {
    __shared__ std::uint8_t tile[kBlockY + 2 * kRadius][kBlockX + 2 * kRadius];
    load_tile<kRadius>(p.grey, p, tile);
    const int x = blockIdx.x * kBlockX + threadIdx.x;
    const int y = blockIdx.y * kBlockY + threadIdx.y;
    if (x >= p.width || y >= p.height) return;
    // Pixel (x, y) is tile[threadIdx.y + kRadius][threadIdx.x + kRadius].
    int sum = 0;
    for (int j = 0; j < kTaps; ++j)
        for (int i = 0; i < kTaps; ++i)
            sum += gauss_weight(i - kRadius) * gauss_weight(j - kRadius) * tile[threadIdx.y + j][threadIdx.x + i];
    p.blurred[at(x, y, p.pitch)] = static_cast<std::uint8_t>(blur_of(sum));
}

__global__ void sobel_v3(Params p) {
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

void step03_shared_tiles(const Params& p, cudaStream_t stream) {
    grey_v3<<<grid_for(p, kGreyX, kGreyY), dim3(kGreyX, kGreyY), 0, stream>>>(p);
    CUDA_CHECK_LAUNCH();
    const dim3 grid = grid_for(p, kBlockX, kBlockY), block(kBlockX, kBlockY);
    gaussian_v3<<<grid, block, 0, stream>>>(p);
    CUDA_CHECK_LAUNCH();
    sobel_v3<<<grid, block, 0, stream>>>(p);
    CUDA_CHECK_LAUNCH();
}

}  // namespace COURSE_KERNEL_COPY

}  // namespace pipeline
