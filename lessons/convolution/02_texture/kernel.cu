// Convolution, step 02: read the image through a texture, one pixel per thread.
//                                                           (your starting point)
//
// This file is the solution of step 01, renamed to step 02's launcher: it
// compiles, runs and is correct, at step 01's speed.
// Change it where the TODO(step 02) markers are.
//
// Replace the 26 global loads (the centre and the 25 under the filter) by
// texture fetches from params.texture, and fill in step02_texture_desc().
//
// README.md in this folder explains the step; run your kernel with
// `meson compile -C build convolution-02 && build/lessons/convolution-02`.
#include "tracks/convolution/device.cuh"
#include "tracks/convolution/kernels.h"

#include "course/check.h"

namespace {

using convolution::kFilterSize;
using convolution::kRadius;

// TODO(step 02): a helper that fetches texel (x, y) from the texture:
// tex2D<unsigned char>(texture, x + 0.5f, y + 0.5f). With unnormalized
// coordinates texel (x, y) covers [x, x + 1) x [y, y + 1); + 0.5 is its centre.

// kMemoryOnly: the same 25 loads and the same store, but the pixels are
// combined with an XOR instead of the weighted sum (the loads must still feed
// the result, or the compiler would drop them).
template <bool kMemoryOnly>
__global__ void texture_per_pixel(const convolution::Params p) {
    const int x = blockIdx.x * blockDim.x + threadIdx.x;
    const int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= p.width || y >= p.height) return;  // the grid is rounded up to whole blocks

    const std::uint8_t* centre_row = p.in + static_cast<std::size_t>(y) * p.pitch;
    // TODO(step 02): read the centre pixel (the frame's result) through the
    // texture p.texture instead of from p.in.
    std::uint8_t result = centre_row[x];  // the frame is copied through
    if (convolution::device::is_interior(x, y, p.width, p.height)) {
        int sum = 0;
        unsigned mix = 0;
        for (int dy = -kRadius; dy <= kRadius; ++dy) {
            const std::uint8_t* row = centre_row + dy * p.pitch;
            for (int dx = -kRadius; dx <= kRadius; ++dx) {
                // TODO(step 02): and the 25 pixels under the filter too. Then the row
                // pointers into p.in are no longer needed.
                const int pixel = row[x + dx];
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
    // TODO(step 02): say how a fetch behaves. The track binds the input image
    // to a texture object made with this descriptor and passes it to your
    // launcher as params.texture.
    //  * addressMode[0] and [1]: cudaAddressModeClamp (a fetch past an edge
    //    returns the edge pixel);
    //  * filterMode: cudaFilterModePoint (the texel itself, no interpolation);
    //  * readMode: cudaReadModeElementType (the byte as stored, 0..255);
    //  * normalizedCoords: 0 (coordinates in pixels, not 0..1).
    return desc;
}

void convolution::step02_texture(const Params& p, cudaStream_t stream) {
    const auto kernel = p.memory_only ? texture_per_pixel<true> : texture_per_pixel<false>;
    kernel<<<grid_for(p, 1), p.block, 0, stream>>>(p);
    CUDA_CHECK_LAUNCH();
}
