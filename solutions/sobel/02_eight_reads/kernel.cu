// Step 02: eight reads per pixel, each neighbour once, into registers.
//
// The slides' second kernel: the eight neighbours are read once each into
// registers and handed to one function, ComputeSobel (here the track's
// edge_magnitude, the rule every step and the CPU reference share), which
// computes both gradients from them. The centre pixel is not needed. Twelve
// global load instructions per pixel become eight.
#include "tracks/sobel/device.cuh"

#include "course/check.h"

namespace sobel {

inline namespace COURSE_KERNEL_COPY {

namespace {

using device::pixel;

__global__ void eight_reads(Params p) {
    const int x = blockIdx.x * blockDim.x + threadIdx.x;
    const int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= p.width || y >= p.height) return;
    const int ul = pixel(p, x - 1, y - 1), um = pixel(p, x, y - 1), ur = pixel(p, x + 1, y - 1);
    const int ml = pixel(p, x - 1, y), mr = pixel(p, x + 1, y);
    const int ll = pixel(p, x - 1, y + 1), lm = pixel(p, x, y + 1), lr = pixel(p, x + 1, y + 1);
    p.out[static_cast<std::size_t>(y) * p.pitch + x] = edge_magnitude(ul, um, ur, ml, mr, ll, lm, lr);
}

constexpr int kBlockX = 32, kBlockY = 8;  // a warp along a row: its reads and its write are coalesced

}  // namespace

void step02_eight_reads(const Params& p, cudaStream_t stream) {
    eight_reads<<<grid_for(p, kBlockX, kBlockY), dim3(kBlockX, kBlockY), 0, stream>>>(p);
    CUDA_CHECK_LAUNCH();
}

}  // namespace COURSE_KERNEL_COPY

}  // namespace sobel
