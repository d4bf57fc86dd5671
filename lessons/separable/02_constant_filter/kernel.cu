// Separable, step 02: the filter in __constant__ memory.  (your starting point)
//
// This is step 01's solution. Move the weights into constant memory, where a
// warp that reads one weight gets it broadcast (TODO(step 02)). README.md in
// this folder explains why; run your kernel with
//     meson compile -C build separable-02 && build/lessons/separable-02
#include "tracks/separable/kernels.h"

#include "course/check.h"

#include <algorithm>
#include <cstddef>

namespace {

constexpr int kBlockWidth = 32;  // a warp spans one row: its loads and stores are coalesced
constexpr int kBlockHeight = 8;

// TODO(step 02): declare the filter's home in constant memory here:
// __constant__ float filter_weights[separable::kMaxTaps]; and read the weights
// from it in both kernels instead of from `weights` (which they then no
// longer need: drop the parameter).

__global__ void row_pass_constant(const float* __restrict__ in, float* __restrict__ tmp, int width, int height,
                                  const float* __restrict__ weights, int taps) {
    const int r = taps / 2;
    for (int y = blockIdx.y * blockDim.y + threadIdx.y; y < height; y += blockDim.y * gridDim.y) {
        const float* row = in + static_cast<std::size_t>(y) * width;
        for (int x = blockIdx.x * blockDim.x + threadIdx.x; x < width; x += blockDim.x * gridDim.x) {
            float sum = 0.0f;
            for (int k = 0; k < taps; ++k) sum += weights[k] * row[separable::clamp_index(x + k - r, width)];
            tmp[static_cast<std::size_t>(y) * width + x] = sum;
        }
    }
}

__global__ void column_pass_constant(const float* __restrict__ tmp, float* __restrict__ out, int width, int height,
                                     const float* __restrict__ weights, int taps) {
    const int r = taps / 2;
    for (int y = blockIdx.y * blockDim.y + threadIdx.y; y < height; y += blockDim.y * gridDim.y) {
        for (int x = blockIdx.x * blockDim.x + threadIdx.x; x < width; x += blockDim.x * gridDim.x) {
            float sum = 0.0f;
            for (int k = 0; k < taps; ++k)
                sum +=
                    weights[k] * tmp[static_cast<std::size_t>(separable::clamp_index(y + k - r, height)) * width + x];
            out[static_cast<std::size_t>(y) * width + x] = sum;
        }
    }
}

}  // namespace

void separable::step02_constant_filter(const Params& p, cudaStream_t stream) {
    // TODO(step 02): first copy the p.taps weights from p.weights (device
    // memory) into filter_weights, on the stream: cudaMemcpyToSymbolAsync with
    // cudaMemcpyDeviceToDevice, inside CUDA_CHECK.
    const dim3 block(kBlockWidth, kBlockHeight);
    // Enough blocks to cover a 2048x2048 image; larger images are walked by
    // the grid-stride loops.
    const dim3 grid(std::min(ceil_div(p.width, kBlockWidth), 64), std::min(ceil_div(p.height, kBlockHeight), 256));
    row_pass_constant<<<grid, block, 0, stream>>>(p.in, p.tmp, p.width, p.height, p.weights, p.taps);
    CUDA_CHECK_LAUNCH();
    column_pass_constant<<<grid, block, 0, stream>>>(p.tmp, p.out, p.width, p.height, p.weights, p.taps);
    CUDA_CHECK_LAUNCH();
}
