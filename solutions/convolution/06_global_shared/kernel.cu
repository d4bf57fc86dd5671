// Convolution, step 06: global memory into shared memory, four pixels per
// thread, simple shifted reads.
//
// No texture: the block loads its tile straight from global memory into
// shared memory, and each thread computes four neighbouring pixels of a row
// from it (the computation of step 03, the tile of step 04). The tile is the
// block's 4*blockDim.x x blockDim.y output pixels plus the 2-pixel apron:
// (4*blockDim.x + 4) x (blockDim.y + 4) bytes.
//
// The load is the simplest one that works: each thread copies four bytes of
// a tile row, its own four shifted left and up by the apron, then (stepping
// by the block's size) the strip on the right and the rows below. The shift
// by 2 bytes puts each group of four 2 bytes off a 4-byte boundary, so the
// four bytes cannot be read as one 32-bit word: they are read one at a
// time. On the 8800 GT none of these loads coalesced: 3.6 ms, memory only
// 1.6 ms. Step 07 lines the loads up.
//
// Out of the image (near its edges), rows are clamped and columns read as 0:
// such pixels only ever feed frame pixels, which are copied, not filtered.
#include "tracks/convolution/device.cuh"
#include "tracks/convolution/kernels.h"

#include "course/check.h"

namespace {

using convolution::kFilterSize;
using convolution::kRadius;
namespace device = convolution::device;

constexpr int kPixelsPerThread = 4;
constexpr int kColumns = kPixelsPerThread + 2 * kRadius;  // the 8 columns under a thread's four windows

template <bool kMemoryOnly, bool kAligned>
__global__ void global_to_shared(const convolution::Params p) {
    extern __shared__ std::uint8_t tile[];
    const int tile_width = kPixelsPerThread * blockDim.x + 2 * kRadius;
    const int tile_height = blockDim.y + 2 * kRadius;
    const int x0 = kPixelsPerThread * blockIdx.x * blockDim.x;  // the block's first output pixel
    const int y0 = blockIdx.y * blockDim.y;

    // Tile byte (c, r) is image pixel (x0 - 2 + c, y0 - 2 + r).
    for (int r = threadIdx.y; r < tile_height; r += blockDim.y) {
        const std::uint8_t* row = device::clamped_row(p.in, y0 - kRadius + r, p.height, p.pitch);
        for (int c = kPixelsPerThread * threadIdx.x; c < tile_width; c += kPixelsPerThread * blockDim.x)
            for (int i = 0; i < kPixelsPerThread && c + i < tile_width; ++i)
                tile[r * tile_width + c + i] = device::load_byte(row, x0 - kRadius + c + i, p.pitch);
    }
    __syncthreads();

    const int x = x0 + kPixelsPerThread * threadIdx.x, y = y0 + threadIdx.y;
    if (x >= p.width || y >= p.height) return;
    // The thread's four windows cover tile columns 4*threadIdx.x .. + 7 of
    // tile rows threadIdx.y .. + 4.
    const std::uint8_t* window = &tile[threadIdx.y * tile_width + kPixelsPerThread * threadIdx.x];
    int sum[kPixelsPerThread] = {};
    std::uint32_t word = 0;
    if (!kMemoryOnly) {
#pragma unroll
        for (int dy = 0; dy < kFilterSize; ++dy) {
#pragma unroll
            for (int c = 0; c < kColumns; ++c) {
                const int pixel = window[dy * tile_width + c];
#pragma unroll
                for (int k = 0; k < kPixelsPerThread; ++k)
                    if (c - k >= 0 && c - k < kFilterSize) sum[k] += p.filter.weights[dy * kFilterSize + c - k] * pixel;
            }
        }
    }
#pragma unroll
    for (int k = 0; k < kPixelsPerThread; ++k) {
        std::uint8_t result = window[kRadius * tile_width + kRadius + k];  // the pixel itself: frame, memory only
        if (!kMemoryOnly && device::is_interior(x + k, y, p.width, p.height))
            result = convolution::scale_and_clamp(sum[k], p.filter.scale);
        device::set_byte(word, k, result);
    }
    device::store_word<kAligned>(p.out + static_cast<std::size_t>(y) * p.pitch, x, p.width, word);
}

}  // namespace

void convolution::step06_global_shared(const Params& p, cudaStream_t stream) {
    using Kernel = void (*)(Params);
    const Kernel kernels[2][2] = {{global_to_shared<false, false>, global_to_shared<false, true>},
                                  {global_to_shared<true, false>, global_to_shared<true, true>}};
    const std::size_t shared =
        static_cast<std::size_t>(kPixelsPerThread * p.block.x + 2 * kRadius) * (p.block.y + 2 * kRadius);
    kernels[p.memory_only][rows_aligned(p, 4)]<<<grid_for(p, kPixelsPerThread), p.block, shared, stream>>>(p);
    CUDA_CHECK_LAUNCH();
}
