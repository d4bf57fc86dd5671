// Separable, step 05: the tile copies through the read-only data cache.  (your starting point)
//
// This is step 04's solution without its tile copies: write them again with
// __ldg (TODO(step 05)), then compare with step 04 in the ladder, in the SASS
// and in Nsight Compute. README.md in this folder says what to look for; run
// your kernel with
//     meson compile -C build separable-05 && build/lessons/separable-05
#include "tracks/separable/kernels.h"

#include "course/check.h"

#include <cstddef>

namespace {

constexpr int kBlock = 16;  // threads per block in x and in y: a 16 x 16 tile of outputs

__constant__ float filter_weights[separable::kMaxTaps];

// The row tile's stride in words: at least `words`, and 16 banks past a
// multiple of 32, so the two half-warps of a 16-wide block read disjoint banks.
__host__ __device__ constexpr int padded_stride(int words) { return words + ((kBlock - words) % 32 + 32) % 32; }
static_assert(padded_stride(22) == 48 && padded_stride(16) == 16 && padded_stride(78) == 80,
              "padded_stride must round up to 16 mod 32");

__global__ void row_pass_read_only(const float* __restrict__ in, float* __restrict__ tmp, int width, int height,
                                   int taps) {
    extern __shared__ float tile[];  // kBlock rows of kBlock + 2r pixels, `stride` words apart
    const int r = taps / 2, tile_width = kBlock + 2 * r, stride = padded_stride(tile_width);
    const int x0 = blockIdx.x * kBlock, y = blockIdx.y * kBlock + threadIdx.y;
    // A row past the bottom edge copies the last row: its sums are never stored.
    const float* row = in + static_cast<std::size_t>(separable::clamp_index(y, height)) * width;
    float* tile_row = tile + threadIdx.y * stride;
    // TODO(step 05): copy this row of the tile, as step 04 did (i from
    // threadIdx.x to tile_width in steps of kBlock), reading each pixel with
    // __ldg(&row[...]) so that the load goes through the read-only path.
    __syncthreads();

    const int x = x0 + threadIdx.x;
    if (x >= width || y >= height) return;
    float sum = 0.0f;
    for (int k = 0; k < taps; ++k) sum += filter_weights[k] * tile_row[threadIdx.x + k];
    tmp[static_cast<std::size_t>(y) * width + x] = sum;
}

__global__ void column_pass_read_only(const float* __restrict__ tmp, float* __restrict__ out, int width, int height,
                                      int taps) {
    extern __shared__ float tile[];  // kBlock + 2r rows of kBlock pixels
    const int r = taps / 2, tile_height = kBlock + 2 * r;
    const int x = blockIdx.x * kBlock + threadIdx.x, y0 = blockIdx.y * kBlock;
    const int column = separable::clamp_index(x, width);
    for (int j = threadIdx.y; j < tile_height; j += kBlock) {
        // TODO(step 05): copy tile row j as step 04 did, each pixel of tmp
        // read with __ldg(&...).
    }
    __syncthreads();

    const int y = y0 + threadIdx.y;
    if (x >= width || y >= height) return;
    float sum = 0.0f;
    for (int k = 0; k < taps; ++k) sum += filter_weights[k] * tile[(threadIdx.y + k) * kBlock + threadIdx.x];
    out[static_cast<std::size_t>(y) * width + x] = sum;
}

}  // namespace

void separable::step05_read_only_loads(const Params& p, cudaStream_t stream) {
    CUDA_CHECK(cudaMemcpyToSymbolAsync(filter_weights, p.weights, p.taps * sizeof(float), 0, cudaMemcpyDeviceToDevice,
                                       stream));
    const dim3 block(kBlock, kBlock), grid = grid_for(p, kBlock, kBlock);
    const int tile_width = kBlock + 2 * p.radius();
    const std::size_t row_tile_bytes = sizeof(float) * kBlock * padded_stride(tile_width);  // at most 5120 bytes
    const std::size_t column_tile_bytes = sizeof(float) * kBlock * tile_width;
    row_pass_read_only<<<grid, block, row_tile_bytes, stream>>>(p.in, p.tmp, p.width, p.height, p.taps);
    CUDA_CHECK_LAUNCH();
    column_pass_read_only<<<grid, block, column_tile_bytes, stream>>>(p.tmp, p.out, p.width, p.height, p.taps);
    CUDA_CHECK_LAUNCH();
}
