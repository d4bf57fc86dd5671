// Image pipeline, step 01: three naive kernels, 8x8 blocks, one pixel per
// thread. (your starting point)
//
// Write the blur and the Sobel below (TODO(step 01)); the grey kernel and the
// launcher are complete. README.md in this folder explains the rules and the
// border; run your kernels with
//     meson compile -C build pipeline-01 && build/lessons/pipeline-01
#include "tracks/pipeline/device.cuh"

#include "course/check.h"

namespace pipeline {

inline namespace COURSE_KERNEL_COPY {

namespace {

using device::at;
using device::clamped;

__global__ void grey_v1(Params p) {
    const int x = blockIdx.x * blockDim.x + threadIdx.x;
    const int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= p.width || y >= p.height) return;
    const std::uint8_t* rgb = p.rgb + at(3 * x, y, p.rgb_pitch);
    p.grey[at(x, y, p.pitch)] = static_cast<std::uint8_t>(grey_of(rgb[0], rgb[1], rgb[2]));
}

__global__ void gaussian_v1(Params p) {
    const int x = blockIdx.x * blockDim.x + threadIdx.x;
    const int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= p.width || y >= p.height) return;
    // TODO(step 01): the weighted sum of the 7x7 greys around (x, y):
    // gauss_weight(i) * gauss_weight(j) * clamped(p.grey, p, x + i, y + j)
    // for i, j = -kRadius..kRadius (clamped() reads the nearest pixel inside
    // the image); store blur_of(sum) at p.blurred[at(x, y, p.pitch)].
}

__global__ void sobel_v1(Params p) {
    const int x = blockIdx.x * blockDim.x + threadIdx.x;
    const int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= p.width || y >= p.height) return;
    // TODO(step 01): Gx and Gy from the 3x3 blurred pixels around (x, y)
    // (clamped(p.blurred, p, x + dx, y + dy)), with the weights in
    // tracks/pipeline/kernels.h; store edge_of(gx, gy) at
    // p.out[at(x, y, p.pitch)].
}

constexpr int kBlockX = 8, kBlockY = 8;

}  // namespace

void step01_naive_kernels(const Params& p, cudaStream_t stream) {
    const dim3 grid = grid_for(p, kBlockX, kBlockY), block(kBlockX, kBlockY);
    grey_v1<<<grid, block, 0, stream>>>(p);
    CUDA_CHECK_LAUNCH();
    gaussian_v1<<<grid, block, 0, stream>>>(p);
    CUDA_CHECK_LAUNCH();
    sobel_v1<<<grid, block, 0, stream>>>(p);
    CUDA_CHECK_LAUNCH();
}

}  // namespace COURSE_KERNEL_COPY

}  // namespace pipeline
