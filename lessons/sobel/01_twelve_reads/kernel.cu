// Sobel, step 01: global memory only, one thread per pixel, twelve reads
// per pixel. (your starting point)
//
// Write the two gradients below (TODO(step 01)); the kernel that combines
// them and the launcher are complete. README.md in this folder explains the rule and the border;
// run your kernel with
//     meson compile -C build sobel-01 && build/lessons/sobel-01
#include "tracks/sobel/device.cuh"

#include "course/check.h"

namespace sobel {

inline namespace COURSE_KERNEL_COPY {

namespace {

using device::pixel;

// The two gradients, each with its own six reads. They are kept out of line
// (__noinline__) so that each really makes its reads: inlined, nvcc would see
// that four of the twelve addresses repeat, with no store in between, and
// load each of them once. Step 02 makes that merge the code's own.
__device__ __noinline__ int horizontal_gradient(const Params& p, int x, int y) {
    // TODO(step 01): Horz = ur + 2 mr + lr - ul - 2 ml - ll, six reads with
    // pixel(p, column, row): ur is pixel(p, x + 1, y - 1), ml is
    // pixel(p, x - 1, y), and so on (pixel() clamps into the image).
    return 0;
}

__device__ __noinline__ int vertical_gradient(const Params& p, int x, int y) {
    // TODO(step 01): Vert = ul + 2 um + ur - ll - 2 lm - lr, six reads of
    // its own (the slides' first kernel has ll twice here: write lr).
    return 0;
}

__global__ void twelve_reads(Params p) {
    const int x = blockIdx.x * blockDim.x + threadIdx.x;
    const int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= p.width || y >= p.height) return;
    const int horz = horizontal_gradient(p, x, y);
    const int vert = vertical_gradient(p, x, y);
    const int sum = (horz < 0 ? -horz : horz) + (vert < 0 ? -vert : vert);
    p.out[static_cast<std::size_t>(y) * p.pitch + x] = static_cast<std::uint8_t>(sum < 255 ? sum : 255);
}

constexpr int kBlockX = 32, kBlockY = 8;  // a warp along a row: its reads and its write are coalesced

}  // namespace

void step01_twelve_reads(const Params& p, cudaStream_t stream) {
    twelve_reads<<<grid_for(p, kBlockX, kBlockY), dim3(kBlockX, kBlockY), 0, stream>>>(p);
    CUDA_CHECK_LAUNCH();
}

}  // namespace COURSE_KERNEL_COPY

}  // namespace sobel
