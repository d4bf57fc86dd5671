// Separable, step 01: a row pass and a column pass, one output per thread.
// (your starting point)
//
// Write the two kernel bodies below (TODO(step 01)); the launcher is
// complete. README.md in this folder explains the filter and the edge rule;
// run your kernel with
//     meson compile -C build separable-01 && build/lessons/separable-01
#include "tracks/separable/kernels.h"

#include "course/check.h"

#include <algorithm>
#include <cstddef>

namespace {

constexpr int kBlockWidth = 32;  // a warp spans one row: its loads and stores are coalesced
constexpr int kBlockHeight = 8;

__global__ void row_pass_naive(const float* __restrict__ in, float* __restrict__ tmp, int width, int height,
                               const float* __restrict__ weights, int taps) {
    // TODO(step 01): a grid-stride loop over the rows y (start at this
    // thread's y, step by blockDim.y * gridDim.y) and, inside it, over the
    // columns x (likewise with .x). For each (x, y): tmp[y * width + x] = the
    // sum over k = 0 .. taps-1 of weights[k] * in[y * width + clamp_index(x + k
    // - r, width)], with r = taps / 2. Index with std::size_t
    // (static_cast<std::size_t>(y) * width), as every kernel of the course does.
}

__global__ void column_pass_naive(const float* __restrict__ tmp, float* __restrict__ out, int width, int height,
                                  const float* __restrict__ weights, int taps) {
    // TODO(step 01): the same loops; out[y * width + x] = the sum over k of
    // weights[k] * tmp[clamp_index(y + k - r, height) * width + x]: the
    // window runs down the column, the edge rows repeat.
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
