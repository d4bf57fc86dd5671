// A plant for the grading's self-test (tests/test_sanitizer_plants.cpp): step
// 01's two passes, right at every size, whose column pass reads the row
// r + 1 below each output, unclamped, as a read-ahead for the next window
// would, and uses it only for taps no launch has. At the last r + 1 rows it
// reads past the end of the image. Only compute-sanitizer sees it.
#include "tracks/separable/kernels.h"

#include "course/check.h"

#include <algorithm>
#include <cstddef>

namespace {

__global__ void row_pass(const float* __restrict__ in, float* __restrict__ tmp, int width, int height,
                         const float* __restrict__ weights, int taps) {
    const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= width || y >= height) return;
    const int r = taps / 2;
    float sum = 0.0f;
    for (int k = 0; k < taps; ++k)
        sum += weights[k] * in[static_cast<std::size_t>(y) * width + separable::clamp_index(x + k - r, width)];
    tmp[static_cast<std::size_t>(y) * width + x] = sum;
}

__global__ void column_pass_reading_ahead(const float* __restrict__ tmp, float* __restrict__ out, int width, int height,
                                          const float* __restrict__ weights, int taps) {
    const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= width || y >= height) return;
    const int r = taps / 2;
    const float ahead = tmp[static_cast<std::size_t>(y + r + 1) * width + x];  // past the image at the bottom
    float sum = 0.0f;
    for (int k = 0; k < taps; ++k)
        sum += weights[k] * tmp[static_cast<std::size_t>(separable::clamp_index(y + k - r, height)) * width + x];
    if (taps > separable::kMaxTaps) sum += ahead;  // never: the read is there, its value unused
    out[static_cast<std::size_t>(y) * width + x] = sum;
}

}  // namespace

void separable::step01_naive(const Params& p, cudaStream_t stream) {
    const dim3 block(32, 8);
    const dim3 grid = grid_for(p, 32, 8);
    row_pass<<<grid, block, 0, stream>>>(p.in, p.tmp, p.width, p.height, p.weights, p.taps);
    CUDA_CHECK_LAUNCH();
    column_pass_reading_ahead<<<grid, block, 0, stream>>>(p.tmp, p.out, p.width, p.height, p.weights, p.taps);
    CUDA_CHECK_LAUNCH();
}
