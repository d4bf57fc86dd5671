// Separable, step 03: shared-memory tiles with their aprons.  (your starting point)
//
// This is step 02's solution. Stage each block's pixels in shared memory,
// once each, and sum from there (TODO(step 03)), for any image size.
// README.md in this folder explains the tile and its apron; run your kernel
// with
//     meson compile -C build separable-03 && build/lessons/separable-03
#include "tracks/separable/kernels.h"

#include "course/check.h"

#include <algorithm>
#include <cstddef>

namespace {

// TODO(step 03): one 16 x 16 block per 16 x 16 tile of outputs instead of
// these shapes: constexpr int kBlock = 16;
constexpr int kBlockWidth = 32;
constexpr int kBlockHeight = 8;

__constant__ float filter_weights[separable::kMaxTaps];

// TODO(step 03): in both kernels, replace the grid-stride loops: each block
// first copies the pixels its tile needs into shared memory
// (extern __shared__ float tile[]), once each, clamping coordinates into the
// image; then __syncthreads(); then each thread sums its output from the tile
// and stores it if it lies inside the image. Row pass: 16 rows of 16 + 2r
// pixels. Column pass: 16 + 2r rows of 16 pixels of tmp.
__global__ void row_pass_tiled(const float* __restrict__ in, float* __restrict__ tmp, int width, int height, int taps) {
    const int r = taps / 2;
    for (int y = blockIdx.y * blockDim.y + threadIdx.y; y < height; y += blockDim.y * gridDim.y) {
        const float* row = in + static_cast<std::size_t>(y) * width;
        for (int x = blockIdx.x * blockDim.x + threadIdx.x; x < width; x += blockDim.x * gridDim.x) {
            float sum = 0.0f;
            for (int k = 0; k < taps; ++k) sum += filter_weights[k] * row[separable::clamp_index(x + k - r, width)];
            tmp[static_cast<std::size_t>(y) * width + x] = sum;
        }
    }
}

__global__ void column_pass_tiled(const float* __restrict__ tmp, float* __restrict__ out, int width, int height,
                                  int taps) {
    const int r = taps / 2;
    for (int y = blockIdx.y * blockDim.y + threadIdx.y; y < height; y += blockDim.y * gridDim.y) {
        for (int x = blockIdx.x * blockDim.x + threadIdx.x; x < width; x += blockDim.x * gridDim.x) {
            float sum = 0.0f;
            for (int k = 0; k < taps; ++k)
                sum += filter_weights[k] *
                       tmp[static_cast<std::size_t>(separable::clamp_index(y + k - r, height)) * width + x];
            out[static_cast<std::size_t>(y) * width + x] = sum;
        }
    }
}

}  // namespace

void separable::step03_shared_tiles(const Params& p, cudaStream_t stream) {
    CUDA_CHECK(cudaMemcpyToSymbolAsync(filter_weights, p.weights, p.taps * sizeof(float), 0, cudaMemcpyDeviceToDevice,
                                       stream));
    // TODO(step 03): a 16 x 16 block, grid_for(p, kBlock, kBlock) to cover the
    // image, and the tile's bytes as the launches' dynamic shared memory.
    const dim3 block(kBlockWidth, kBlockHeight);
    const dim3 grid(std::min(ceil_div(p.width, kBlockWidth), 64), std::min(ceil_div(p.height, kBlockHeight), 256));
    row_pass_tiled<<<grid, block, 0, stream>>>(p.in, p.tmp, p.width, p.height, p.taps);
    CUDA_CHECK_LAUNCH();
    column_pass_tiled<<<grid, block, 0, stream>>>(p.tmp, p.out, p.width, p.height, p.taps);
    CUDA_CHECK_LAUNCH();
}
