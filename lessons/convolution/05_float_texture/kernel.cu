// Convolution, step 05: a float texture into shared memory.
//                                                           (your starting point)
//
// This file is the solution of step 04, renamed to step 05's launcher: it
// compiles, runs and is correct, at step 04's speed.
// Change it where the TODO(step 05) markers are.
//
// Read the texture as normalized floats, keep a tile of floats in shared
// memory, and compute in float; the result must stay exact.
//
// README.md in this folder explains the step; run your kernel with
// `meson compile -C build convolution-05 && build/lessons/convolution-05`.
#include "tracks/convolution/device.cuh"
#include "tracks/convolution/kernels.h"

#include "course/check.h"

namespace {

using convolution::kFilterSize;
using convolution::kRadius;

// TODO(step 05): a struct of the weights as floats (float weights[kTaps];
// float scale;), filled once by the launcher from p.filter and passed to
// the kernel as a second parameter.
template <bool kMemoryOnly>
__global__ void float_texture_to_shared(const convolution::Params p) {
    // TODO(step 05): a tile of floats (4 bytes per pixel).
    extern __shared__ std::uint8_t tile[];
    const int tile_width = blockDim.x + 2 * kRadius;
    const int tile_height = blockDim.y + 2 * kRadius;
    const int x0 = blockIdx.x * blockDim.x;  // the block's first output pixel
    const int y0 = blockIdx.y * blockDim.y;

    // Tile pixel (tx, ty) is image pixel (x0 - 2 + tx, y0 - 2 + ty). Each
    // thread fetches its own pixel shifted up and left by the apron, then,
    // stepping by the block's size, the apron pixels to the right and below.
    // TODO(step 05): fetch tex2D<float>: the texture now hands out b / 255 for
    // a byte b. Store rintf(255.0f * value) in the tile: the exact integer b,
    // as a float.
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
        // TODO(step 05): add up in float with the float weights (every product and
        // partial sum is an integer below 2^24: exact), and finish with the float
        // overload of convolution::scale_and_clamp.
        int sum = 0;
        for (int dy = -kRadius; dy <= kRadius; ++dy)
            for (int dx = -kRadius; dx <= kRadius; ++dx)
                sum += p.filter.weights[(dy + kRadius) * kFilterSize + dx + kRadius] * centre[dy * tile_width + dx];
        result = convolution::scale_and_clamp(sum, p.filter.scale);
    }
    p.out[static_cast<std::size_t>(y) * p.pitch + x] = result;
}

}  // namespace

cudaTextureDesc convolution::step05_float_texture_desc() {
    cudaTextureDesc desc{};
    desc.addressMode[0] = cudaAddressModeClamp;
    desc.addressMode[1] = cudaAddressModeClamp;
    desc.filterMode = cudaFilterModePoint;
    // TODO(step 05): cudaReadModeNormalizedFloat: the texture unit converts
    // each byte b to the float b / 255.
    desc.readMode = cudaReadModeElementType;
    desc.normalizedCoords = 0;
    return desc;
}

void convolution::step05_float_texture(const Params& p, cudaStream_t stream) {
    // TODO(step 05): fill the float weights, and size the tile in floats.
    const std::size_t shared = static_cast<std::size_t>(p.block.x + 2 * kRadius) * (p.block.y + 2 * kRadius);
    const auto kernel = p.memory_only ? float_texture_to_shared<true> : float_texture_to_shared<false>;
    kernel<<<grid_for(p, 1), p.block, shared, stream>>>(p);
    CUDA_CHECK_LAUNCH();
}
