// Convolution, step 01: naive global memory, one pixel per thread.
//
// Each thread computes one output pixel: it reads the 25 input pixels under
// the filter straight from global memory, one byte at a time, multiplies
// them by the weights and stores one byte. That is all the talk's first
// kernel did (148 ms on a GeForce 8800 GT, 2048x2048).
//
// What it costs: every input pixel is read 25 times, by 25 different threads,
// as single bytes. On the 8800 GT (compute capability 1.1) global memory had
// no cache and byte reads could not be coalesced: each one was a separate
// memory transaction. Today the loads go through the L1 cache, so most of the
// 25 reads of a pixel hit it, and a warp of a 16x16 block, two rows of 16
// threads, reads 16 consecutive bytes in each row: two to four 32-byte
// sectors per load. The kernel is far better off than in 2009; what remains
// is the instruction count: 25 loads and 25 multiply-adds for every pixel.
#include "tracks/convolution/device.cuh"
#include "tracks/convolution/kernels.h"

#include "course/check.h"

namespace {

using convolution::kFilterSize;
using convolution::kRadius;

// kMemoryOnly: the same 25 loads and the same store, but the pixels are
// combined with an XOR instead of the weighted sum (the loads must still feed
// the result, or the compiler would drop them).
template <bool kMemoryOnly>
__global__ void naive_global(const convolution::Params p) {
    const int x = blockIdx.x * blockDim.x + threadIdx.x;
    const int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= p.width || y >= p.height) return;  // the grid is rounded up to whole blocks

    const std::uint8_t* centre_row = p.in + static_cast<std::size_t>(y) * p.pitch;
    std::uint8_t result = centre_row[x];  // the frame is copied through
    if (convolution::device::is_interior(x, y, p.width, p.height)) {
        int sum = 0;
        unsigned mix = 0;
        for (int dy = -kRadius; dy <= kRadius; ++dy) {
            const std::uint8_t* row = centre_row + dy * p.pitch;
            for (int dx = -kRadius; dx <= kRadius; ++dx) {
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

void convolution::step01_naive_global(const Params& p, cudaStream_t stream) {
    const auto kernel = p.memory_only ? naive_global<true> : naive_global<false>;
    kernel<<<grid_for(p, 1), p.block, 0, stream>>>(p);
    CUDA_CHECK_LAUNCH();
}
