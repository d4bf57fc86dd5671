// Separable, step 01: a row pass and a column pass, one output per thread.
//
// The blog post's first CUDA version, written for any image size: two
// kernels, each a grid-stride loop over the pixels (so the grid need not
// cover the image and no size has to be a multiple of anything). The row pass
// writes its result to params.tmp, a whole intermediate image in global
// memory; the column pass reads it back. Each output reads `taps` pixels and
// `taps` weights from global memory: the weights are the same for every
// thread of a warp, and the pixels overlap their neighbours' almost entirely.
// The steps after this one remove those repeated reads, one kind at a time.
#include "tracks/separable/kernels.h"

#include "course/check.h"

#include <algorithm>
#include <cstddef>

namespace {

constexpr int kBlockWidth = 32;  // a warp spans one row: its loads and stores are coalesced
constexpr int kBlockHeight = 8;

__global__ void row_pass_naive(const float* __restrict__ in, float* __restrict__ tmp, int width, int height,
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

__global__ void column_pass_naive(const float* __restrict__ tmp, float* __restrict__ out, int width, int height,
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

void separable::step01_naive(const Params& p, cudaStream_t stream) {
    const dim3 block(kBlockWidth, kBlockHeight);
    // Enough blocks to cover a 2048x2048 image; larger images are walked by
    // the grid-stride loops.
    const dim3 grid(std::min(ceil_div(p.width, kBlockWidth), 64), std::min(ceil_div(p.height, kBlockHeight), 256));
    row_pass_naive<<<grid, block, 0, stream>>>(p.in, p.tmp, p.width, p.height, p.weights, p.taps);
    CUDA_CHECK_LAUNCH();
    column_pass_naive<<<grid, block, 0, stream>>>(p.tmp, p.out, p.width, p.height, p.weights, p.taps);
    CUDA_CHECK_LAUNCH();
}
