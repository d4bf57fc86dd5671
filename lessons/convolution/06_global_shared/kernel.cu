// Convolution, step 06: global memory into shared memory, four pixels per thread,
// simple shifted reads.
//                                                           (your starting point)
//
// This file is the solution of step 05, renamed to step 06's launcher: it
// compiles, but stops at once with a message (see below).
// Change it where the TODO(step 06) markers are.
//
// No texture any more: load the tile from global memory yourself, and make
// each thread compute four pixels. Until you do, the launcher stops with a
// message: step 06 gets no texture to read.
//
// README.md in this folder explains the step; run your kernel with
// `meson compile -C build convolution-06 && build/lessons/convolution-06`.
#include "tracks/convolution/device.cuh"
#include "tracks/convolution/kernels.h"

#include "course/check.h"

namespace {

using convolution::kFilterSize;
using convolution::kRadius;
using convolution::kTaps;

// TODO(step 06): back to bytes and integer weights (drop the float struct):
// step 05 showed what the float texture costs.
// The weights as floats, converted once on the host.
struct FloatFilter {
    float weights[kTaps];
    float scale;
};

// TODO(step 06): four pixels per thread from a byte tile loaded from global
// memory (params.in; there is no texture in this step). The tile is the
// block's 4*blockDim.x x blockDim.y output pixels plus the 2-pixel apron:
// (4*blockDim.x + 4) x (blockDim.y + 4) bytes; tile byte (c, r) is image
// pixel (x0 - 2 + c, y0 - 2 + r), x0 = 4*blockIdx.x*blockDim.x. A
// template parameter kAligned, as in step 03, for the 32-bit store of the
// four results.
template <bool kMemoryOnly>
__global__ void global_to_shared(const convolution::Params p, const FloatFilter filter) {
    extern __shared__ float tile[];
    const int tile_width = blockDim.x + 2 * kRadius;
    const int tile_height = blockDim.y + 2 * kRadius;
    const int x0 = blockIdx.x * blockDim.x;
    const int y0 = blockIdx.y * blockDim.y;

    // TODO(step 06): load the tile from global memory, "shifted" as in the talk:
    // each thread copies 4 bytes of a tile row, its own four (columns
    // 4*threadIdx.x .. + 3) first, then, stepping by 4*blockDim.x across and
    // blockDim.y down, the strip on the right and the rows below; byte by
    // byte, since the 2-byte shift leaves each group of four off a 4-byte
    // boundary. Rows outside the image: convolution::device::clamped_row;
    // columns outside it: convolution::device::load_byte (reads 0 there).
    for (int ty = threadIdx.y; ty < tile_height; ty += blockDim.y)
        for (int tx = threadIdx.x; tx < tile_width; tx += blockDim.x)
            tile[ty * tile_width + tx] =
                rintf(255.0f * tex2D<float>(p.texture, x0 - kRadius + tx + 0.5f, y0 - kRadius + ty + 0.5f));
    __syncthreads();

    // TODO(step 06): compute the four pixels x .. x + 3 (x = x0 + 4*threadIdx.x)
    // from the 8 x 5 tile bytes under their windows, as step 03 did from the
    // texture, and store the four results with one store_word<kAligned>.
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

// TODO(step 06): done for you: step 05's step05_float_texture_desc() is gone. The
// track makes a texture only for steps 02 to 05; this step reads params.in.

void convolution::step06_global_shared(const Params& p, cudaStream_t stream) {
    // TODO(step 06): grid_for(p, 4), the byte tile's size, and a table of the
    // four kernels indexed by p.memory_only and rows_aligned(p, 4). Then delete
    // the check below.
    if (p.texture == 0)
        throw course::Error("step 06: this kernel still reads a texture, and step 06 gets none (params.texture is 0): "
                            "load the tile from params.in (see the TODO(step 06) markers in its kernel.cu)");
    FloatFilter filter{};
    for (int i = 0; i < kTaps; ++i) filter.weights[i] = static_cast<float>(p.filter.weights[i]);
    filter.scale = p.filter.scale;
    const std::size_t shared =
        sizeof(float) * static_cast<std::size_t>(p.block.x + 2 * kRadius) * (p.block.y + 2 * kRadius);
    const auto kernel = p.memory_only ? global_to_shared<true> : global_to_shared<false>;
    kernel<<<grid_for(p, 1), p.block, shared, stream>>>(p, filter);
    CUDA_CHECK_LAUNCH();
}
