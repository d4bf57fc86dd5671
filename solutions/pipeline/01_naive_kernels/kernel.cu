// Step 01: three naive kernels, 8x8 blocks, one pixel per thread.
//
// The talk's starting point: one kernel per stage, each reading the image the
// stage before wrote. grey_v1 turns each RGB pixel into a grey byte;
// gaussian_v1 reads 49 greys per pixel (the 7x7 window, the border clamped)
// and writes the blurred byte; sobel_v1 reads the 3x3 window of blurred
// bytes and writes the edge. Blocks are 8x8 threads, a natural first choice
// for a 2-D image, and every read goes straight to global memory (the L1 and
// L2 caches catch the repeats). The talk's Gaussian took 1.971 ms on a GTX
// Titan X; profiling it is how the next steps are found.
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
    int sum = 0;
    for (int j = -kRadius; j <= kRadius; ++j)
        for (int i = -kRadius; i <= kRadius; ++i)
            sum += gauss_weight(i) * gauss_weight(j) * clamped(p.grey, p, x + i, y + j);
    p.blurred[at(x, y, p.pitch)] = static_cast<std::uint8_t>(blur_of(sum));
}

__global__ void sobel_v1(Params p) {
    const int x = blockIdx.x * blockDim.x + threadIdx.x;
    const int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= p.width || y >= p.height) return;
    const auto b = [&](int dx, int dy) { return clamped(p.blurred, p, x + dx, y + dy); };
    const int gx = b(1, -1) + 2 * b(1, 0) + b(1, 1) - b(-1, -1) - 2 * b(-1, 0) - b(-1, 1);
    const int gy = b(-1, -1) + 2 * b(0, -1) + b(1, -1) - b(-1, 1) - 2 * b(0, 1) - b(1, 1);
    p.out[at(x, y, p.pitch)] = edge_of(gx, gy);
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
