// Step 04: the texture into a shared-memory tile, each thread sliding a
// three-row window down a run of rows.
//
// The slides' shared-memory kernel. A block first copies its tile and the
// 1-pixel apron around it from the texture into shared memory, each pixel
// once; then each thread computes kRowsPerThread consecutive pixels of one
// column. Going down, the window's top two rows are the previous pixel's
// bottom two, so a pixel costs three shared-memory reads (the new row's
// three neighbours) instead of eight texture reads.
#include "tracks/sobel/device.cuh"

#include "course/check.h"

namespace sobel {

inline namespace COURSE_KERNEL_COPY {

namespace {

using device::texel;

constexpr int kTileWidth = 64;     // threads per block along x, one column each
constexpr int kThreadRows = 4;     // threads per block along y
constexpr int kRowsPerThread = 8;  // the run of rows each thread computes
constexpr int kTileHeight = kThreadRows * kRowsPerThread;
constexpr int kSharedWidth = kTileWidth + 2;  // the tile and its apron: one pixel on each side
constexpr int kSharedHeight = kTileHeight + 2;
static_assert(kTileWidth % 32 == 0, "a warp must lie along one row of the tile, so that its reads and stores are "
                                    "consecutive bytes");

__global__ void shared_window(Params p) {
    __shared__ std::uint8_t tile[kSharedHeight][kSharedWidth];
    const int x0 = blockIdx.x * kTileWidth, y0 = blockIdx.y * kTileHeight;

    // The tile and its apron, each pixel read once from the texture, which
    // clamps coordinates outside the image.
    constexpr int kThreads = kTileWidth * kThreadRows;
    for (int i = threadIdx.y * kTileWidth + threadIdx.x; i < kSharedHeight * kSharedWidth; i += kThreads) {
        const int r = i / kSharedWidth, c = i % kSharedWidth;
        tile[r][c] = static_cast<std::uint8_t>(texel(p.texture, x0 + c - 1, y0 + r - 1));
    }
    __syncthreads();

    const int c = threadIdx.x + 1;                 // this thread's column in the tile
    const int top = threadIdx.y * kRowsPerThread;  // the window's top row in the tile
    const int x = x0 + threadIdx.x;
    int ul = tile[top][c - 1], um = tile[top][c], ur = tile[top][c + 1];
    int ml = tile[top + 1][c - 1], mm = tile[top + 1][c], mr = tile[top + 1][c + 1];
#pragma unroll
    for (int r = 0; r < kRowsPerThread; ++r) {
        const int ll = tile[top + r + 2][c - 1], lm = tile[top + r + 2][c], lr = tile[top + r + 2][c + 1];
        const int y = y0 + top + r;
        if (x < p.width && y < p.height)
            p.out[static_cast<std::size_t>(y) * p.pitch + x] = edge_magnitude(ul, um, ur, ml, mr, ll, lm, lr);
        // Slide down one row: the middle row becomes the top, the new row the middle.
        ul = ml, um = mm, ur = mr;
        ml = ll, mm = lm, mr = lr;
    }
}

}  // namespace

// As in step 03: bytes as they are, pixel coordinates, the nearest texel,
// clamped at the edges.
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
    shared_window<<<grid_for(p, kTileWidth, kTileHeight), dim3(kTileWidth, kThreadRows), 0, stream>>>(p);
    CUDA_CHECK_LAUNCH();
}

}  // namespace COURSE_KERNEL_COPY

}  // namespace sobel
