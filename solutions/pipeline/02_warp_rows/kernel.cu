// Step 02: 32x2 blocks: each warp reads along one row.
//
// The talk's first iteration. The profile of step 01's Gaussian says bandwidth
// bound, and the bandwidth is the L1's (memory throughput near 100%, DRAM's
// near 2%); its indicators point at the memory requests: with 8x8 blocks a warp covers 4 rows of 8
// bytes, so every load instruction touches 4 rows, 4 or more 32-byte sectors
// for 32 bytes used. With 32x2 blocks a warp covers 32 bytes of one row:
// one or two sectors per request. The kernels are step 01's; only the block
// shape changes (the talk: 1.971 ms to 0.725 ms, 2.72x, on a GTX Titan X).
#include "tracks/pipeline/device.cuh"

#include "course/check.h"

namespace pipeline {

inline namespace COURSE_KERNEL_COPY {

namespace {

using device::at;
using device::clamped;

__global__ void grey_v2(Params p) {
    const int x = blockIdx.x * blockDim.x + threadIdx.x;
    const int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= p.width || y >= p.height) return;
    const std::uint8_t* rgb = p.rgb + at(3 * x, y, p.rgb_pitch);
    p.grey[at(x, y, p.pitch)] = static_cast<std::uint8_t>(grey_of(rgb[0], rgb[1], rgb[2]));
}

__global__ void gaussian_v2(Params p) {
    const int x = blockIdx.x * blockDim.x + threadIdx.x;
    const int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= p.width || y >= p.height) return;
    int sum = 0;
    for (int j = -kRadius; j <= kRadius; ++j)
        for (int i = -kRadius; i <= kRadius; ++i)
            sum += gauss_weight(i) * gauss_weight(j) * clamped(p.grey, p, x + i, y + j);
    p.blurred[at(x, y, p.pitch)] = static_cast<std::uint8_t>(blur_of(sum));
}

__global__ void sobel_v2(Params p) {
    const int x = blockIdx.x * blockDim.x + threadIdx.x;
    const int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= p.width || y >= p.height) return;
    const auto b = [&](int dx, int dy) { return clamped(p.blurred, p, x + dx, y + dy); };
    const int gx = b(1, -1) + 2 * b(1, 0) + b(1, 1) - b(-1, -1) - 2 * b(-1, 0) - b(-1, 1);
    const int gy = b(-1, -1) + 2 * b(0, -1) + b(1, -1) - b(-1, 1) - 2 * b(0, 1) - b(1, 1);
    p.out[at(x, y, p.pitch)] = edge_of(gx, gy);
}

constexpr int kBlockX = 32, kBlockY = 2;  // a warp along one row: each load instruction touches one row of bytes

}  // namespace

void step02_warp_rows(const Params& p, cudaStream_t stream) {
    const dim3 grid = grid_for(p, kBlockX, kBlockY), block(kBlockX, kBlockY);
    grey_v2<<<grid, block, 0, stream>>>(p);
    CUDA_CHECK_LAUNCH();
    gaussian_v2<<<grid, block, 0, stream>>>(p);
    CUDA_CHECK_LAUNCH();
    sobel_v2<<<grid, block, 0, stream>>>(p);
    CUDA_CHECK_LAUNCH();
}

}  // namespace COURSE_KERNEL_COPY

}  // namespace pipeline
