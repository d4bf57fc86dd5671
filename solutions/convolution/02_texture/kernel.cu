// Convolution, step 02: read the image through a texture, one pixel per
// thread.
//
// The kernel of step 01 with its global loads (the centre and the 25 under
// the filter) replaced by texture fetches, tex2D<unsigned char>(texture,
// x + 0.5f, y + 0.5f): a texel's centre. A texture object is a handle
// through which the GPU's texture units read memory: here, the input image
// as it lies in global memory, rows `pitch` bytes apart (binding linear memory
// directly to a 2D texture became possible in CUDA 2.2; before, the talk had
// to copy the image into a cudaArray first, 0.6 ms). The descriptor below
// says how a fetch behaves.
//
// On the 8800 GT this was the big step, 148 ms to 7.8 ms: global memory had
// no cache, the texture units did, and they did not care about coalescing.
// Today global loads go through the same L1 cache as texture fetches, so the
// cache is no longer the texture path's advantage; what a texture still
// gives is the hardware addressing (clamping at the edges, 2D coordinates,
// conversion of the texel's format), and what it costs is that texture
// fetches are issued and returned at a lower rate than plain loads.
#include "tracks/convolution/device.cuh"
#include "tracks/convolution/kernels.h"

#include "course/check.h"

namespace {

using convolution::kFilterSize;
using convolution::kRadius;

// Texel (x, y) covers [x, x + 1) x [y, y + 1) in unnormalized coordinates;
// its centre is (x + 0.5, y + 0.5).
__device__ __forceinline__ int fetch(cudaTextureObject_t texture, int x, int y) {
    return tex2D<unsigned char>(texture, x + 0.5f, y + 0.5f);
}

template <bool kMemoryOnly>
__global__ void texture_per_pixel(const convolution::Params p) {
    const int x = blockIdx.x * blockDim.x + threadIdx.x;
    const int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= p.width || y >= p.height) return;

    std::uint8_t result = static_cast<std::uint8_t>(fetch(p.texture, x, y));  // the frame is copied through
    if (convolution::device::is_interior(x, y, p.width, p.height)) {
        int sum = 0;
        unsigned mix = 0;
        for (int dy = -kRadius; dy <= kRadius; ++dy) {
            for (int dx = -kRadius; dx <= kRadius; ++dx) {
                const int pixel = fetch(p.texture, x + dx, y + dy);
                if constexpr (kMemoryOnly)
                    mix ^= pixel;
                else
                    sum += p.filter.weights[(dy + kRadius) * kFilterSize + dx + kRadius] * pixel;
            }
        }
        result = kMemoryOnly ? static_cast<std::uint8_t>(mix) : convolution::scale_and_clamp(sum, p.filter.scale);
    }
    p.out[static_cast<std::size_t>(y) * p.pitch + x] = result;
}

}  // namespace

cudaTextureDesc convolution::step02_texture_desc() {
    cudaTextureDesc desc{};
    // A fetch past an edge returns the edge pixel (only frame pixels are near
    // enough to ask, and their result is not used).
    desc.addressMode[0] = cudaAddressModeClamp;
    desc.addressMode[1] = cudaAddressModeClamp;
    desc.filterMode = cudaFilterModePoint;    // the texel itself, no interpolation between texels
    desc.readMode = cudaReadModeElementType;  // the byte as it is stored: 0..255
    desc.normalizedCoords = 0;                // coordinates in pixels, not in 0..1
    return desc;
}

void convolution::step02_texture(const Params& p, cudaStream_t stream) {
    const auto kernel = p.memory_only ? texture_per_pixel<true> : texture_per_pixel<false>;
    kernel<<<grid_for(p, 1), p.block, 0, stream>>>(p);
    CUDA_CHECK_LAUNCH();
}
