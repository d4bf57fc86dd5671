// Convolution, step 05: a float texture into shared memory.
//
// Step 04 with the texture read as normalized floats
// (cudaReadModeNormalizedFloat): the texture unit converts each byte b into
// the float b / 255 on the way, the tile in shared memory holds floats (four
// times the bytes), and the sums are computed in float. The talk tried it
// (6.5 ms against step 04's 3.3 on the 8800 GT: "bad idea") because a
// filter that needs float arithmetic gets its conversion for free. The
// lesson is in why it cost, and whether it still does (see README.md).
//
// Exactness: b / 255 * 255 comes back within a rounding error of b, so
// rintf restores the exact integer, and every product and partial sum of
// integer weights and pixels is an integer below 2^24, which float holds
// exactly. The result is bit for bit the integer kernel's.
#include "tracks/convolution/device.cuh"
#include "tracks/convolution/kernels.h"

#include "course/check.h"

namespace {

using convolution::kFilterSize;
using convolution::kRadius;
using convolution::kTaps;

// The weights as floats, converted once on the host.
struct FloatFilter {
    float weights[kTaps];
    float scale;
};

template <bool kMemoryOnly>
__global__ void float_texture_to_shared(const convolution::Params p, const FloatFilter filter) {
    extern __shared__ float tile[];
    const int tile_width = blockDim.x + 2 * kRadius;
    const int tile_height = blockDim.y + 2 * kRadius;
    const int x0 = blockIdx.x * blockDim.x;
    const int y0 = blockIdx.y * blockDim.y;

    for (int ty = threadIdx.y; ty < tile_height; ty += blockDim.y)
        for (int tx = threadIdx.x; tx < tile_width; tx += blockDim.x)
            tile[ty * tile_width + tx] =
                rintf(255.0f * tex2D<float>(p.texture, x0 - kRadius + tx + 0.5f, y0 - kRadius + ty + 0.5f));
    __syncthreads();

    const int x = x0 + threadIdx.x, y = y0 + threadIdx.y;
    if (x >= p.width || y >= p.height) return;
    const float* centre = &tile[(threadIdx.y + kRadius) * tile_width + threadIdx.x + kRadius];
    std::uint8_t result = static_cast<std::uint8_t>(*centre);  // the frame is copied through
    if (!kMemoryOnly && convolution::device::is_interior(x, y, p.width, p.height)) {
        float sum = 0.0f;
        for (int dy = -kRadius; dy <= kRadius; ++dy)
            for (int dx = -kRadius; dx <= kRadius; ++dx)
                sum += filter.weights[(dy + kRadius) * kFilterSize + dx + kRadius] * centre[dy * tile_width + dx];
        result = convolution::scale_and_clamp(sum, filter.scale);
    }
    p.out[static_cast<std::size_t>(y) * p.pitch + x] = result;
}

}  // namespace

cudaTextureDesc convolution::step05_float_texture_desc() {
    cudaTextureDesc desc{};
    desc.addressMode[0] = cudaAddressModeClamp;
    desc.addressMode[1] = cudaAddressModeClamp;
    desc.filterMode = cudaFilterModePoint;
    desc.readMode = cudaReadModeNormalizedFloat;  // a byte b arrives as the float b / 255
    desc.normalizedCoords = 0;
    return desc;
}

void convolution::step05_float_texture(const Params& p, cudaStream_t stream) {
    FloatFilter filter{};
    for (int i = 0; i < kTaps; ++i) filter.weights[i] = static_cast<float>(p.filter.weights[i]);
    filter.scale = p.filter.scale;
    const std::size_t shared =
        sizeof(float) * static_cast<std::size_t>(p.block.x + 2 * kRadius) * (p.block.y + 2 * kRadius);
    const auto kernel = p.memory_only ? float_texture_to_shared<true> : float_texture_to_shared<false>;
    kernel<<<grid_for(p, 1), p.block, shared, stream>>>(p, filter);
    CUDA_CHECK_LAUNCH();
}
