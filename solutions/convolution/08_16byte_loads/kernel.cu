// Convolution, step 08: 16-byte loads and stores.
//
// Step 07 with words four times as wide: each thread loads 16 bytes of a
// tile row with one instruction (a uint4), computes 16 neighbouring pixels,
// and stores them with one 16-byte store. The apron is one 16-byte word on
// each side. The same bytes move with a quarter of the load and store
// instructions, and the memory system sees fewer, larger requests. (The
// talk: memory only 1.2 ms to 0.4 ms on the 8800 GT.)
//
// And yet the talk's whole kernel got slower, 3.4 ms to 4.8 ms. The
// computation reads the tile from shared memory byte by byte, as before, but
// now neighbouring threads read bytes 16 apart: thread tx reads byte
// 16tx + c of its tile row, in 4-byte word 4tx + c/4, in bank
// (4tx + c/4) mod 32, only every fourth bank. Threads tx and tx + 8 of a
// row hit the same bank at different words, and with 16x16 blocks the
// warp's other 16 threads read the next tile row, 72 words (8 banks) on,
// and land on the same 8 banks: 32 threads on 8 banks, a 4-way bank
// conflict, and every shared-memory read of the computation takes four
// passes instead of one. README.md shows it in Nsight Compute; step 09
// removes it.
//
// 16-byte accesses need 16-byte aligned rows (rows_aligned); for other
// pitches the words are assembled from, and split into, single bytes.
#include "tracks/convolution/device.cuh"
#include "tracks/convolution/kernels.h"

#include "course/check.h"

namespace {

using convolution::kFilterSize;
using convolution::kRadius;
namespace device = convolution::device;

constexpr int kPixelsPerThread = 16;
constexpr int kApron = 16;                                // one 16-byte word on each side
constexpr int kColumns = kPixelsPerThread + 2 * kRadius;  // the 20 columns under a thread's 16 windows

template <bool kMemoryOnly, bool kAligned>
__global__ void wide_loads(const convolution::Params p) {
    extern __shared__ __align__(16) std::uint8_t tile[];
    const int tile_width = kPixelsPerThread * blockDim.x + 2 * kApron;  // a multiple of 16 bytes
    const int tile_height = blockDim.y + 2 * kRadius;
    const int x0 = kPixelsPerThread * blockIdx.x * blockDim.x;
    const int y0 = blockIdx.y * blockDim.y;

    // Tile byte (c, r) is image pixel (x0 - 16 + c, y0 - 2 + r).
    for (int r = threadIdx.y; r < tile_height; r += blockDim.y) {
        const std::uint8_t* row = device::clamped_row(p.in, y0 - kRadius + r, p.height, p.pitch);
        auto* tile_row = reinterpret_cast<uint4*>(tile + r * tile_width);
        tile_row[1 + threadIdx.x] = device::load_word<kAligned, uint4>(row, x0 + 16 * threadIdx.x, p.pitch);
        for (int side = threadIdx.x; side < 2; side += blockDim.x) {
            const int word = side == 0 ? 0 : blockDim.x + 1;
            tile_row[word] = device::load_word<kAligned, uint4>(row, x0 - kApron + 16 * word, p.pitch);
        }
    }
    __syncthreads();

    const int x = x0 + kPixelsPerThread * threadIdx.x, y = y0 + threadIdx.y;
    if (x >= p.width || y >= p.height) return;
    // Image pixel x - 2 is tile column 16*threadIdx.x + 14.
    const std::uint8_t* window = &tile[threadIdx.y * tile_width + kPixelsPerThread * threadIdx.x + kApron - kRadius];
    int sum[kPixelsPerThread] = {};
    if (!kMemoryOnly) {
#pragma unroll
        for (int dy = 0; dy < kFilterSize; ++dy) {
            int pixels[kColumns];
#pragma unroll
            for (int c = 0; c < kColumns; ++c) pixels[c] = window[dy * tile_width + c];  // 4-way bank conflicts
#pragma unroll
            for (int k = 0; k < kPixelsPerThread; ++k)
#pragma unroll
                for (int t = 0; t < kFilterSize; ++t) sum[k] += p.filter.weights[dy * kFilterSize + t] * pixels[k + t];
        }
    }
    // The 16 input pixels themselves, for the frame and for memory only.
    const uint4 centre = *reinterpret_cast<const uint4*>(&window[kRadius * tile_width + kRadius]);
    uint4 word = centre;
    if (!kMemoryOnly) {
#pragma unroll
        for (int k = 0; k < kPixelsPerThread; ++k)
            if (device::is_interior(x + k, y, p.width, p.height))
                device::set_byte(word, k, convolution::scale_and_clamp(sum[k], p.filter.scale));
    }
    device::store_word<kAligned>(p.out + static_cast<std::size_t>(y) * p.pitch, x, p.width, word);
}

}  // namespace

void convolution::step08_16byte_loads(const Params& p, cudaStream_t stream) {
    using Kernel = void (*)(Params);
    const Kernel kernels[2][2] = {{wide_loads<false, false>, wide_loads<false, true>},
                                  {wide_loads<true, false>, wide_loads<true, true>}};
    const std::size_t shared =
        static_cast<std::size_t>(kPixelsPerThread * p.block.x + 2 * kApron) * (p.block.y + 2 * kRadius);
    kernels[p.memory_only][rows_aligned(p, 16)]<<<grid_for(p, kPixelsPerThread), p.block, shared, stream>>>(p);
    CUDA_CHECK_LAUNCH();
}
