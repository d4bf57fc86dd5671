// Separable, step 03: shared-memory tiles with their aprons.
//
// In step 02 a warp of the row pass reads 32 + taps - 1 distinct pixels but
// issues taps loads of 32 each: every pixel is fetched `taps` times (from the
// L1 when it is lucky). Here each block first copies the pixels it needs
// into shared memory, once each, and the weighted sums read them from there.
//
// A 16 x 16 block computes a 16 x 16 tile of outputs. The row pass needs its
// 16 rows widened by the radius r on both sides (the apron): 16 x (16 + 2r)
// pixels. The column pass needs (16 + 2r) rows of 16 columns of the row
// pass's output. The threads copy the tile in strides of 16, so any radius up
// to 31 fits, and __syncthreads() separates the copy from the sums.
//
// Any image size: the blog post's version needed a block size that divides
// the image (28 x 28 there). Here the copy clamps its coordinates into the
// image, as the filter's edges do, and threads whose output lies past the
// right or bottom edge help to copy but store nothing.
#include "tracks/separable/kernels.h"

#include "course/check.h"

#include <cstddef>

namespace {

constexpr int kBlock = 16;  // threads per block in x and in y: a 16 x 16 tile of outputs

__constant__ float filter_weights[separable::kMaxTaps];

__global__ void row_pass_tiled(const float* __restrict__ in, float* __restrict__ tmp, int width, int height, int taps) {
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

__global__ void column_pass_tiled(const float* __restrict__ tmp, float* __restrict__ out, int width, int height,
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

void separable::step03_shared_tiles(const Params& p, cudaStream_t stream) {
    CUDA_CHECK(cudaMemcpyToSymbolAsync(filter_weights, p.weights, p.taps * sizeof(float), 0, cudaMemcpyDeviceToDevice,
                                       stream));
    const dim3 block(kBlock, kBlock), grid = grid_for(p, kBlock, kBlock);
    const std::size_t tile_bytes = sizeof(float) * kBlock * (kBlock + 2 * p.radius());  // at most 4992 bytes
    row_pass_tiled<<<grid, block, tile_bytes, stream>>>(p.in, p.tmp, p.width, p.height, p.taps);
    CUDA_CHECK_LAUNCH();
    column_pass_tiled<<<grid, block, tile_bytes, stream>>>(p.tmp, p.out, p.width, p.height, p.taps);
    CUDA_CHECK_LAUNCH();
}
