// Sobel, step 04: the texture into a shared-memory tile, each thread
// sliding a three-row window down a run of rows. (your starting point:
// step 03's solution)
//
// Do the TODO(step 04)s; README.md in this folder explains why. Run with
//     meson compile -C build sobel-04 && build/lessons/sobel-04
#include "tracks/sobel/device.cuh"

#include "course/check.h"

namespace sobel {

inline namespace COURSE_KERNEL_COPY {

namespace {

using device::texel;

// TODO(step 04): the tile's shape: kTileWidth = 64 threads along x (one
// column each), kThreadRows = 4 along y, kRowsPerThread = 8 rows each; the
// shared tile is (kTileWidth + 2) x (kThreadRows * kRowsPerThread + 2) bytes.
__global__ void shared_window(Params p) {
    // TODO(step 04): first the tile and its 1-pixel apron, each pixel read
    // once from the texture into __shared__ memory by the block's threads
    // together, then __syncthreads(); then each thread's run of rows down its
    // column, a three-row window sliding down: three shared reads per pixel.
    const int y = blockIdx.x;  // one image row per block
    std::uint8_t* row = p.out + static_cast<std::size_t>(y) * p.pitch;
    for (int x = threadIdx.x; x < p.width; x += blockDim.x) {
        const cudaTextureObject_t t = p.texture;
        row[x] = edge_magnitude(texel(t, x - 1, y - 1), texel(t, x, y - 1), texel(t, x + 1, y - 1), texel(t, x - 1, y),
                                texel(t, x + 1, y), texel(t, x - 1, y + 1), texel(t, x, y + 1), texel(t, x + 1, y + 1));
    }
}

constexpr int kThreads = 256;

}  // namespace

// Bytes read as they are (no conversion to float), at pixel coordinates (not
// normalized), the nearest texel (no filtering), coordinates outside the
// image clamped to its edge: the track's border rule.
cudaTextureDesc step04_shared_window_desc() {
    cudaTextureDesc desc{};
    desc.addressMode[0] = cudaAddressModeClamp;
    desc.addressMode[1] = cudaAddressModeClamp;
    desc.filterMode = cudaFilterModePoint;
    desc.readMode = cudaReadModeElementType;
    desc.normalizedCoords = 0;
    return desc;
}

void step04_shared_window(const Params& p, cudaStream_t stream) {
    // TODO(step 04): grid_for(p, kTileWidth, kTileHeight) blocks of
    // kTileWidth x kThreadRows threads.
    shared_window<<<p.height, kThreads, 0, stream>>>(p);
    CUDA_CHECK_LAUNCH();
}

}  // namespace COURSE_KERNEL_COPY

}  // namespace sobel
