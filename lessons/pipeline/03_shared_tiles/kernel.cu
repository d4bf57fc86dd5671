// Image pipeline, step 03: the blur and the Sobel read shared-memory tiles.
// (your starting point: step 02's solution)
//
// Do the TODO(step 03)s; README.md in this folder explains why. Run with
//     meson compile -C build pipeline-03 && build/lessons/pipeline-03
#include "tracks/pipeline/device.cuh"

#include "course/check.h"

namespace pipeline {

inline namespace COURSE_KERNEL_COPY {

namespace {

using device::at;
using device::clamped;

__global__ void grey_v3(Params p) {
    const int x = blockIdx.x * blockDim.x + threadIdx.x;
    const int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= p.width || y >= p.height) return;
    const std::uint8_t* rgb = p.rgb + at(3 * x, y, p.rgb_pitch);
    p.grey[at(x, y, p.pitch)] = static_cast<std::uint8_t>(grey_of(rgb[0], rgb[1], rgb[2]));
}

// TODO(step 03): a helper that copies the (32 + 2r) x (8 + 2r) pixels of an
// image around a 32x8 block into a __shared__ tile, every thread a few of
// them (a loop from the thread's index in steps of the block's size), each
// clamped into the image, then __syncthreads(): load_tile<r>(image, p, tile).

__global__ void gaussian_v3(Params p) {
    // TODO(step 03): load the 38x14 greys this block needs into a __shared__
    // tile, then read the 49 greys from it; blocks of 32x8 threads.
    const int x = blockIdx.x * blockDim.x + threadIdx.x;
    const int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= p.width || y >= p.height) return;
    int sum = 0;
    for (int j = -kRadius; j <= kRadius; ++j)
        for (int i = -kRadius; i <= kRadius; ++i)
            sum += gauss_weight(i) * gauss_weight(j) * clamped(p.grey, p, x + i, y + j);
    p.blurred[at(x, y, p.pitch)] = static_cast<std::uint8_t>(blur_of(sum));
}

__global__ void sobel_v3(Params p) {
    // TODO(step 03): the same with the 34x10 blurred pixels around the block.
    const int x = blockIdx.x * blockDim.x + threadIdx.x;
    const int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= p.width || y >= p.height) return;
    const auto b = [&](int dx, int dy) { return clamped(p.blurred, p, x + dx, y + dy); };
    const int gx = b(1, -1) + 2 * b(1, 0) + b(1, 1) - b(-1, -1) - 2 * b(-1, 0) - b(-1, 1);
    const int gy = b(-1, -1) + 2 * b(0, -1) + b(1, -1) - b(-1, 1) - 2 * b(0, 1) - b(1, 1);
    p.out[at(x, y, p.pitch)] = edge_of(gx, gy);
}

// TODO(step 03): the blur and the Sobel get blocks of 32x8 (kBlockX, kBlockY,
// declared before the kernels that use them); the grey kernel keeps 32x2.
constexpr int kBlockX = 32, kBlockY = 2;  // a warp along one row: each load instruction touches one row of bytes

}  // namespace

void step03_shared_tiles(const Params& p, cudaStream_t stream) {
    // TODO(step 03): launch grey_v3 with 32x2 blocks and the other two with 32x8.
    const dim3 grid = grid_for(p, kBlockX, kBlockY), block(kBlockX, kBlockY);
    grey_v3<<<grid, block, 0, stream>>>(p);
    CUDA_CHECK_LAUNCH();
    gaussian_v3<<<grid, block, 0, stream>>>(p);
    CUDA_CHECK_LAUNCH();
    sobel_v3<<<grid, block, 0, stream>>>(p);
    CUDA_CHECK_LAUNCH();
}

}  // namespace COURSE_KERNEL_COPY

}  // namespace pipeline
