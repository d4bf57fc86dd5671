// Convolution, step 04: texture into shared memory.
//
// Steps 02 and 03 fetch every input pixel many times (25 and 10 times per
// output pixel), once for each window it lies in. Here a block first copies
// the pixels it needs into shared memory, once each: its tile of
// blockDim.x x blockDim.y output pixels plus the 2-pixel apron around it,
// (blockDim.x + 4) x (blockDim.y + 4) pixels, fetched through the texture
// (which clamps at the image's edges, so no bounds checks). After a barrier
// every thread computes its pixel from shared memory, where each of the 25
// reads costs a fraction of a texture fetch. For a 16x16 block that is
// 400 fetches for 256 pixels, 1.6 per pixel instead of 25 or 10. (The talk:
// 6.3 ms to 3.3 ms on the 8800 GT; memory only, 1.1 ms.)
//
// The tile's size follows the block's shape, so any --block works; the
// shared memory is sized at launch (dynamic shared memory).
#include "tracks/convolution/device.cuh"
#include "tracks/convolution/kernels.h"

#include "course/check.h"

namespace {

using convolution::kFilterSize;
using convolution::kRadius;

template <bool kMemoryOnly>
__global__ void texture_to_shared(const convolution::Params p) {
    extern __shared__ std::uint8_t tile[];
    const int tile_width = blockDim.x + 2 * kRadius;
    const int tile_height = blockDim.y + 2 * kRadius;
    const int x0 = blockIdx.x * blockDim.x;  // the block's first output pixel
    const int y0 = blockIdx.y * blockDim.y;

    // Tile pixel (tx, ty) is image pixel (x0 - 2 + tx, y0 - 2 + ty). Each
    // thread fetches its own pixel shifted up and left by the apron, then,
    // stepping by the block's size, the apron pixels to the right and below.
    for (int ty = threadIdx.y; ty < tile_height; ty += blockDim.y)
        for (int tx = threadIdx.x; tx < tile_width; tx += blockDim.x)
            tile[ty * tile_width + tx] =
                tex2D<unsigned char>(p.texture, x0 - kRadius + tx + 0.5f, y0 - kRadius + ty + 0.5f);
    __syncthreads();  // the whole tile is in shared memory before anyone reads it

    const int x = x0 + threadIdx.x, y = y0 + threadIdx.y;
    if (x >= p.width || y >= p.height) return;  // after the barrier: these threads helped to load
    const std::uint8_t* centre = &tile[(threadIdx.y + kRadius) * tile_width + threadIdx.x + kRadius];
    std::uint8_t result = *centre;  // the frame is copied through
    if (!kMemoryOnly && convolution::device::is_interior(x, y, p.width, p.height)) {
        int sum = 0;
        for (int dy = -kRadius; dy <= kRadius; ++dy)
            for (int dx = -kRadius; dx <= kRadius; ++dx)
                sum += p.filter.weights[(dy + kRadius) * kFilterSize + dx + kRadius] * centre[dy * tile_width + dx];
        result = convolution::scale_and_clamp(sum, p.filter.scale);
    }
    p.out[static_cast<std::size_t>(y) * p.pitch + x] = result;
}

}  // namespace

cudaTextureDesc convolution::step04_texture_shared_desc() {
    cudaTextureDesc desc{};
    desc.addressMode[0] = cudaAddressModeClamp;
    desc.addressMode[1] = cudaAddressModeClamp;
    desc.filterMode = cudaFilterModePoint;
    desc.readMode = cudaReadModeElementType;
    desc.normalizedCoords = 0;
    return desc;
}

void convolution::step04_texture_shared(const Params& p, cudaStream_t stream) {
    const std::size_t shared = static_cast<std::size_t>(p.block.x + 2 * kRadius) * (p.block.y + 2 * kRadius);
    const auto kernel = p.memory_only ? texture_to_shared<true> : texture_to_shared<false>;
    kernel<<<grid_for(p, 1), p.block, shared, stream>>>(p);
    CUDA_CHECK_LAUNCH();
}
