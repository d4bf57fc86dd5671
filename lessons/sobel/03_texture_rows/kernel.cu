// Sobel, step 03: reads through the texture unit, one image row per
// block. (your starting point: step 02's solution)
//
// Do the TODO(step 03)s; README.md in this folder explains why. Run with
//     meson compile -C build sobel-03 && build/lessons/sobel-03
#include "tracks/sobel/device.cuh"

#include "course/check.h"

namespace sobel {

inline namespace COURSE_KERNEL_COPY {

namespace {

using device::pixel;

__global__ void texture_rows(Params p) {
    // TODO(step 03): one image row per block (y = blockIdx.x), the threads
    // striding along it: for (int x = threadIdx.x; x < p.width; x +=
    // blockDim.x). Read the eight neighbours with texel(p.texture, x, y)
    // (tracks/sobel/device.cuh; `using device::texel;` in place of the
    // `using device::pixel;` above): the texture clamps at the edges for you.
    const int x = blockIdx.x * blockDim.x + threadIdx.x;
    const int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= p.width || y >= p.height) return;
    const int ul = pixel(p, x - 1, y - 1), um = pixel(p, x, y - 1), ur = pixel(p, x + 1, y - 1);
    const int ml = pixel(p, x - 1, y), mr = pixel(p, x + 1, y);
    const int ll = pixel(p, x - 1, y + 1), lm = pixel(p, x, y + 1), lr = pixel(p, x + 1, y + 1);
    p.out[static_cast<std::size_t>(y) * p.pitch + x] = edge_magnitude(ul, um, ur, ml, mr, ll, lm, lr);
}

// TODO(step 03): 256 threads per block, one block per row.
constexpr int kBlockX = 32, kBlockY = 8;  // a warp along a row: its reads and its write are coalesced

}  // namespace

// TODO(step 03): how the texture reads: set the address mode of both
// coordinates to cudaAddressModeClamp, point filtering, bytes read as they
// are (cudaReadModeElementType), unnormalized coordinates.
cudaTextureDesc step03_texture_rows_desc() {
    cudaTextureDesc desc{};
    return desc;
}

void step03_texture_rows(const Params& p, cudaStream_t stream) {
    // TODO(step 03): p.height blocks of 256 threads.
    texture_rows<<<grid_for(p, kBlockX, kBlockY), dim3(kBlockX, kBlockY), 0, stream>>>(p);
    CUDA_CHECK_LAUNCH();
}

}  // namespace COURSE_KERNEL_COPY

}  // namespace sobel
