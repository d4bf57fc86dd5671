// Convolution, step 03: texture, four pixels per thread, 32-bit writes.
//
// Each thread now computes four neighbouring pixels of a row. Their four
// 5x5 windows overlap: together they cover 8 columns by 5 rows, so the
// thread fetches those 40 texels once each and uses each for every window
// it falls in: 40 fetches for four pixels instead of 100. And the four
// results leave as one 32-bit store instead of four byte stores: a warp of
// a 16x16 block, two rows of 16 threads, writes 64 contiguous bytes in each
// of its two rows with one instruction. (The talk: 7.8 ms to 6.3 ms on the
// 8800 GT.)
//
// A 4-byte store must be 4-byte aligned: the thread's first pixel is a
// multiple of 4, so it is when the output and its pitch are multiples of 4
// (rows_aligned). For other pitches, and for the last few pixels of a row
// whose width is not a multiple of 4, the bytes are stored one at a time.
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

template <bool kMemoryOnly, bool kAligned>
__global__ void texture_four_pixels(const convolution::Params p) {
    const int x0 = kPixelsPerThread * (blockIdx.x * blockDim.x + threadIdx.x);  // the first of the four
    const int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x0 >= p.width || y >= p.height) return;

    int sum[kPixelsPerThread] = {};
    unsigned mix[kPixelsPerThread] = {};
    std::uint32_t centres = 0;  // the four input pixels themselves, for the frame
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

cudaTextureDesc convolution::step03_texture_4px_desc() {
    cudaTextureDesc desc{};
    desc.addressMode[0] = cudaAddressModeClamp;
    desc.addressMode[1] = cudaAddressModeClamp;
    desc.filterMode = cudaFilterModePoint;
    desc.readMode = cudaReadModeElementType;
    desc.normalizedCoords = 0;
    return desc;
}

void convolution::step03_texture_4px(const Params& p, cudaStream_t stream) {
    using Kernel = void (*)(Params);
    const Kernel kernels[2][2] = {{texture_four_pixels<false, false>, texture_four_pixels<false, true>},
                                  {texture_four_pixels<true, false>, texture_four_pixels<true, true>}};
    kernels[p.memory_only][rows_aligned(p, 4)]<<<grid_for(p, kPixelsPerThread), p.block, 0, stream>>>(p);
    CUDA_CHECK_LAUNCH();
}
