// Step 03: reads through the texture unit, one image row per block.
//
// The slides' texture kernel: block b computes row b of the image, its
// threads striding along the row, so each thread computes several pixels
// and each pass of the block writes consecutive bytes (coalesced). The eight
// reads go through the texture unit, whose cache holds the rows above and
// below for the neighbouring pixels, and whose clamp address mode applies
// the border rule in hardware: no bounds arithmetic in the kernel.
#include "tracks/sobel/device.cuh"

#include "course/check.h"

namespace sobel {

inline namespace COURSE_KERNEL_COPY {

namespace {

using device::texel;

__global__ void texture_rows(Params p) {
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
cudaTextureDesc step03_texture_rows_desc() {
    cudaTextureDesc desc{};
    desc.addressMode[0] = cudaAddressModeClamp;
    desc.addressMode[1] = cudaAddressModeClamp;
    desc.filterMode = cudaFilterModePoint;
    desc.readMode = cudaReadModeElementType;
    desc.normalizedCoords = 0;
    return desc;
}

void step03_texture_rows(const Params& p, cudaStream_t stream) {
    texture_rows<<<p.height, kThreads, 0, stream>>>(p);
    CUDA_CHECK_LAUNCH();
}

}  // namespace COURSE_KERNEL_COPY

}  // namespace sobel
