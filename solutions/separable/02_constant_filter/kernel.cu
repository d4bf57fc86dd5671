// Separable, step 02: the filter in __constant__ memory.
//
// Every thread of a warp reads the same weight at the same time. From global
// memory that is one load instruction per weight per warp, through the L1
// like any other load. From __constant__ memory it is a broadcast: the
// constant cache serves one address to the whole warp, outside the L1 and
// its load queue, so the global load instructions left are those of the
// pixels. The blog post counted the row pass's global load
// transactions falling by half (61,107,202 to 30,553,602).
//
// The launcher copies the weights into the constant bank on the stream before
// the two passes (a device-to-device copy of at most 63 floats), so every run
// filters with the weights it was given.
#include "tracks/separable/kernels.h"

#include "course/check.h"

#include <algorithm>
#include <cstddef>

namespace {

constexpr int kBlockWidth = 32;
constexpr int kBlockHeight = 8;

__constant__ float filter_weights[separable::kMaxTaps];

__global__ void row_pass_constant(const float* __restrict__ in, float* __restrict__ tmp, int width, int height,
                                  int taps) {
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

__global__ void column_pass_constant(const float* __restrict__ tmp, float* __restrict__ out, int width, int height,
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

void separable::step02_constant_filter(const Params& p, cudaStream_t stream) {
    CUDA_CHECK(cudaMemcpyToSymbolAsync(filter_weights, p.weights, p.taps * sizeof(float), 0, cudaMemcpyDeviceToDevice,
                                       stream));
    const dim3 block(kBlockWidth, kBlockHeight);
    const dim3 grid(std::min(ceil_div(p.width, kBlockWidth), 64), std::min(ceil_div(p.height, kBlockHeight), 256));
    row_pass_constant<<<grid, block, 0, stream>>>(p.in, p.tmp, p.width, p.height, p.taps);
    CUDA_CHECK_LAUNCH();
    column_pass_constant<<<grid, block, 0, stream>>>(p.tmp, p.out, p.width, p.height, p.taps);
    CUDA_CHECK_LAUNCH();
}
