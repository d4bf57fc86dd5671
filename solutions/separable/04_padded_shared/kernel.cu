// Separable, step 04: padded tiles, no shared-memory bank conflicts.
//
// Shared memory is 32 banks of 4-byte words; word w lives in bank w % 32, and
// a warp's access is as fast as one request only when its 32 threads touch 32
// different banks (or the same word). A 16 x 16 block's warp is two rows of
// 16 threads. In step 03's row pass those two rows of the tile start
// 16 + 2r words apart: 22 for 7 taps, so the second half-warp's banks 22..37
// (mod 32) overlap the first's 0..15 on banks 0..5, and those reads take two
// turns. The blog post measured 1.871 shared load and 1.435 store
// transactions per request in its row pass before padding, 1 after.
//
// The cure is padding: rows `stride` words apart, stride >= 16 + 2r, chosen
// so that stride % 32 == 16. The second half-warp then starts exactly 16
// banks after the first, and every access of the warp covers the 32 banks
// once. That is the post's formula, WARP_SIZE * n = row + (WARP_SIZE -
// blockDim.x) + padding, for blockDim.x = 16. The column pass has no
// conflict to remove: its warp reads two consecutive rows of a 16-word-wide
// tile, 32 consecutive words.
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

__global__ void row_pass_padded(const float* __restrict__ in, float* __restrict__ tmp, int width, int height,
                                int taps) {
    extern __shared__ float tile[];  // kBlock rows of kBlock + 2r pixels, `stride` words apart
    const int r = taps / 2, tile_width = kBlock + 2 * r, stride = padded_stride(tile_width);
    const int x0 = blockIdx.x * kBlock, y = blockIdx.y * kBlock + threadIdx.y;
    // A row past the bottom edge copies the last row: its sums are never stored.
    const float* row = in + static_cast<std::size_t>(separable::clamp_index(y, height)) * width;
    float* tile_row = tile + threadIdx.y * stride;
    for (int i = threadIdx.x; i < tile_width; i += kBlock) tile_row[i] = row[separable::clamp_index(x0 - r + i, width)];
    __syncthreads();

    const int x = x0 + threadIdx.x;
    if (x >= width || y >= height) return;
    float sum = 0.0f;
    for (int k = 0; k < taps; ++k) sum += filter_weights[k] * tile_row[threadIdx.x + k];
    tmp[static_cast<std::size_t>(y) * width + x] = sum;
}

__global__ void column_pass_padded(const float* __restrict__ tmp, float* __restrict__ out, int width, int height,
                                   int taps) {
    extern __shared__ float tile[];  // kBlock + 2r rows of kBlock pixels
    const int r = taps / 2, tile_height = kBlock + 2 * r;
    const int x = blockIdx.x * kBlock + threadIdx.x, y0 = blockIdx.y * kBlock;
    const int column = separable::clamp_index(x, width);
    for (int j = threadIdx.y; j < tile_height; j += kBlock)
        tile[j * kBlock + threadIdx.x] =
            tmp[static_cast<std::size_t>(separable::clamp_index(y0 - r + j, height)) * width + column];
    __syncthreads();

    const int y = y0 + threadIdx.y;
    if (x >= width || y >= height) return;
    float sum = 0.0f;
    for (int k = 0; k < taps; ++k) sum += filter_weights[k] * tile[(threadIdx.y + k) * kBlock + threadIdx.x];
    out[static_cast<std::size_t>(y) * width + x] = sum;
}

}  // namespace

void separable::step04_padded_shared(const Params& p, cudaStream_t stream) {
    CUDA_CHECK(cudaMemcpyToSymbolAsync(filter_weights, p.weights, p.taps * sizeof(float), 0, cudaMemcpyDeviceToDevice,
                                       stream));
    const dim3 block(kBlock, kBlock), grid = grid_for(p, kBlock, kBlock);
    const int tile_width = kBlock + 2 * p.radius();
    const std::size_t row_tile_bytes = sizeof(float) * kBlock * padded_stride(tile_width);  // at most 5120 bytes
    const std::size_t column_tile_bytes = sizeof(float) * kBlock * tile_width;
    row_pass_padded<<<grid, block, row_tile_bytes, stream>>>(p.in, p.tmp, p.width, p.height, p.taps);
    CUDA_CHECK_LAUNCH();
    column_pass_padded<<<grid, block, column_tile_bytes, stream>>>(p.tmp, p.out, p.width, p.height, p.taps);
    CUDA_CHECK_LAUNCH();
}
