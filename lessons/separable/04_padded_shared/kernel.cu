// Separable, step 04: padded tiles, no shared-memory bank conflicts.  (your starting point)
//
// This is step 03's solution. Pad the row pass's tile so that a warp's two
// half-rows fall on different banks (TODO(step 04)). README.md in this folder
// explains the banks and the padding; run your kernel with
//     meson compile -C build separable-04 && build/lessons/separable-04
#include "tracks/separable/kernels.h"

#include "course/check.h"

#include <cstddef>

namespace {

constexpr int kBlock = 16;  // threads per block in x and in y: a 16 x 16 tile of outputs

__constant__ float filter_weights[separable::kMaxTaps];

__global__ void row_pass_padded(const float* __restrict__ in, float* __restrict__ tmp, int width, int height,
                                int taps) {
    // TODO(step 04): put the tile's rows `stride` words apart instead of
    // tile_width: the smallest stride >= tile_width with stride % 32 == 16, so
    // that the two half-warps of a 16-wide block read different banks. Write
    // it as a __host__ __device__ constexpr function: the launcher needs it too.
    extern __shared__ float tile[];  // kBlock rows of kBlock + 2r pixels
    const int r = taps / 2, tile_width = kBlock + 2 * r;
    const int x0 = blockIdx.x * kBlock, y = blockIdx.y * kBlock + threadIdx.y;
    // A row past the bottom edge copies the last row: its sums are never stored.
    const float* row = in + static_cast<std::size_t>(separable::clamp_index(y, height)) * width;
    float* tile_row = tile + threadIdx.y * tile_width;
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
    // TODO(step 04): the row pass's tile is then kBlock * stride floats; the
    // column pass keeps its tile (its warps read 32 consecutive words).
    const std::size_t tile_bytes = sizeof(float) * kBlock * (kBlock + 2 * p.radius());  // at most 4992 bytes
    row_pass_padded<<<grid, block, tile_bytes, stream>>>(p.in, p.tmp, p.width, p.height, p.taps);
    CUDA_CHECK_LAUNCH();
    column_pass_padded<<<grid, block, tile_bytes, stream>>>(p.tmp, p.out, p.width, p.height, p.taps);
    CUDA_CHECK_LAUNCH();
}
