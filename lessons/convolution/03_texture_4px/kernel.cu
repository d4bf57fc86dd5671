// Convolution, step 03: texture, four pixels per thread, 32-bit writes.
//                                                           (your starting point)
//
// This file is the solution of step 02, renamed to step 03's launcher: it
// compiles, runs and is correct, at step 02's speed.
// Change it where the TODO(step 03) markers are.
//
// Make each thread compute four neighbouring pixels of a row, fetching the
// 40 texels under their windows once each, and store the four results with
// one 32-bit store.
//
// README.md in this folder explains the step; run your kernel with
// `meson compile -C build convolution-03 && build/lessons/convolution-03`.
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

// TODO(step 03): four pixels per thread. A template parameter kAligned
// (see the launcher) says whether the four results may leave as one
// 32-bit store.
template <bool kMemoryOnly>
__global__ void texture_four_pixels(const convolution::Params p) {
    // TODO(step 03): x0 = 4 * (this thread's index in x) is the first of four
    // pixels x0 .. x0 + 3 of row y; return if x0 >= p.width or y >= p.height.
    const int x = blockIdx.x * blockDim.x + threadIdx.x;
    const int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= p.width || y >= p.height) return;

    // TODO(step 03): the four windows together cover columns x0 - 2 .. x0 + 5 of
    // rows y - 2 .. y + 2: fetch those 40 texels once each (not 100) and add
    // each to the sums of the windows it falls in: column c (0..7) is tap c - k
    // of pixel k when 0 <= c - k < 5. Keep four sums (int sum[4]) and, for
    // memory only, four XORs; keep the four centre pixels for the frame.
    // Unroll the loops (#pragma unroll) so the arrays stay in registers.
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
    // TODO(step 03): pack the four results into one std::uint32_t (pixel k in
    // byte k: convolution::device::set_byte) and store it with
    // convolution::device::store_word<kAligned>(output row, x0, p.width, word):
    // one 32-bit store when kAligned and the word lies inside the row, byte
    // stores at the row's end.
    p.out[static_cast<std::size_t>(y) * p.pitch + x] = result;
}

}  // namespace

cudaTextureDesc convolution::step03_texture_4px_desc() {
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

void convolution::step03_texture_4px(const Params& p, cudaStream_t stream) {
    // TODO(step 03): a grid of grid_for(p, 4), and a table of the four kernels
    // texture_four_pixels<kMemoryOnly, kAligned>, indexed by p.memory_only and
    // rows_aligned(p, 4): the 32-bit store needs rows that start on 4-byte
    // boundaries.
    const auto kernel = p.memory_only ? texture_four_pixels<true> : texture_four_pixels<false>;
    kernel<<<grid_for(p, 1), p.block, 0, stream>>>(p);
    CUDA_CHECK_LAUNCH();
}
