// Convolution, step 04: texture into shared memory.
//                                                           (your starting point)
//
// This file is the solution of step 03, renamed to step 04's launcher: it
// compiles, runs and is correct, at step 03's speed.
// Change it where the TODO(step 04) markers are.
//
// Make each block fetch its tile of pixels, with the apron around it, into
// shared memory once, and compute one pixel per thread from there.
//
// README.md in this folder explains the step; run your kernel with
// `meson compile -C build convolution-04 && build/lessons/convolution-04`.
#include "tracks/convolution/device.cuh"
#include "tracks/convolution/kernels.h"

#include "course/check.h"

namespace {

using convolution::kFilterSize;
using convolution::kRadius;
namespace device = convolution::device;

constexpr int kPixelsPerThread = 4;
constexpr int kColumns = kPixelsPerThread + 2 * kRadius;  // the 8 columns under the four windows

__device__ __forceinline__ int fetch(cudaTextureObject_t texture, int x, int y) {
    return tex2D<unsigned char>(texture, x + 0.5f, y + 0.5f);
}

// TODO(step 04): back to one pixel per thread (and byte stores: no kAligned),
// but from a tile in shared memory: extern __shared__ std::uint8_t tile[],
// sized by the launcher. The tile is the block's blockDim.x x blockDim.y
// output pixels plus a 2-pixel apron on each side:
// (blockDim.x + 4) x (blockDim.y + 4) bytes; tile pixel (tx, ty) is image
// pixel (x0 - 2 + tx, y0 - 2 + ty), where (x0, y0) is the block's first
// output pixel.
template <bool kMemoryOnly, bool kAligned>
__global__ void texture_to_shared(const convolution::Params p) {
    const int x0 = kPixelsPerThread * (blockIdx.x * blockDim.x + threadIdx.x);  // the first of the four
    const int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x0 >= p.width || y >= p.height) return;

    // TODO(step 04): fill the tile: every thread fetches tile pixels through the
    // texture, starting at its own (threadIdx.x, threadIdx.y) and stepping by
    // blockDim.x across and blockDim.y down until the tile is covered (two
    // nested loops, no division). Then __syncthreads(): nobody reads the tile
    // before all of it is there. Only after the barrier may threads outside
    // the image return (they helped to load).
    int sum[kPixelsPerThread] = {};
    unsigned mix[kPixelsPerThread] = {};
    std::uint32_t centres = 0;  // the four input pixels themselves, for the frame
    // TODO(step 04): the 25 pixels of this thread's window now come from the
    // tile: the centre is tile[(threadIdx.y + 2) * tile width + threadIdx.x + 2].
    // Memory only: the result is the centre pixel (the tile's loads are the
    // memory traffic; the 25 reads of the tile are part of the computation).
#pragma unroll
    for (int dy = -kRadius; dy <= kRadius; ++dy) {
#pragma unroll
        for (int c = 0; c < kColumns; ++c) {
            const int pixel = fetch(p.texture, x0 - kRadius + c, y + dy);
            if (dy == 0 && c >= kRadius && c < kRadius + kPixelsPerThread)
                device::set_byte(centres, c - kRadius, static_cast<std::uint8_t>(pixel));
                // Column c is tap c - k of output pixel k, if that tap exists.
#pragma unroll
            for (int k = 0; k < kPixelsPerThread; ++k) {
                const int tap = c - k;
                if (tap < 0 || tap >= kFilterSize) continue;
                if constexpr (kMemoryOnly)
                    mix[k] ^= pixel;
                else
                    sum[k] += p.filter.weights[(dy + kRadius) * kFilterSize + tap] * pixel;
            }
        }
    }

    std::uint32_t word = 0;
#pragma unroll
    for (int k = 0; k < kPixelsPerThread; ++k) {
        std::uint8_t result = device::byte_of(centres, k);
        if (device::is_interior(x0 + k, y, p.width, p.height))
            result =
                kMemoryOnly ? static_cast<std::uint8_t>(mix[k]) : convolution::scale_and_clamp(sum[k], p.filter.scale);
        device::set_byte(word, k, result);
    }
    device::store_word<kAligned>(p.out + static_cast<std::size_t>(y) * p.pitch, x0, p.width, word);
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
    // TODO(step 04): grid_for(p, 1), and the tile's bytes as the launch's
    // dynamic shared memory: kernel<<<grid, p.block, bytes, stream>>>(p).
    using Kernel = void (*)(Params);
    const Kernel kernels[2][2] = {{texture_to_shared<false, false>, texture_to_shared<false, true>},
                                  {texture_to_shared<true, false>, texture_to_shared<true, true>}};
    kernels[p.memory_only][rows_aligned(p, 4)]<<<grid_for(p, kPixelsPerThread), p.block, 0, stream>>>(p);
    CUDA_CHECK_LAUNCH();
}
