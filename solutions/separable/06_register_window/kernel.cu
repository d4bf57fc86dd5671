// Separable, step 06: four outputs per thread, the window in registers,
// 16-byte loads (beyond the blog post).
//
// After step 05 every output still reads its `taps` inputs on its own, from
// shared memory, and every thread issues one 4-byte load or store at a time.
// Neighbouring outputs share all but one of their inputs. Here a thread
// computes four neighbouring outputs from one window of inputs held in
// registers, so each input it loads is used for up to four outputs:
//
//  * row pass: a thread computes x..x+3 of one row. Its window, taps + 3
//    pixels, is read as float4s (row_filter4 in tracks/separable/device.cuh),
//    straight from global memory: the L1 serves the pixels that neighbouring
//    threads' windows share, so no tile and no __syncthreads() are needed;
//  * column pass: a thread computes columns x..x+3 of kRows consecutive rows.
//    It walks down its column window, taps + kRows - 1 rows, one float4 per
//    row, and adds each into every output row whose window holds it: one
//    float4 load serves up to kRows * 4 outputs.
//
// The float4 path needs rows that start on 16-byte boundaries (width a
// multiple of 4); otherwise the same kernels run with four 4-byte accesses
// per group (the template's kVector = false), so any width works.
#include "tracks/separable/device.cuh"
#include "tracks/separable/kernels.h"

#include "course/check.h"

#include <cstddef>

namespace {

using separable::device::filter_weights;
using separable::device::fma4;

constexpr int kThreadsX = 32;  // a warp: 32 float4s, 512 contiguous bytes of a row
constexpr int kThreadsY = 8;
constexpr int kRows = 8;  // output rows per thread in the column pass

template <bool kVector>
__global__ void row_pass_register(const float* __restrict__ in, float* __restrict__ tmp, int width, int height,
                                  int taps) {
    const int x = 4 * (blockIdx.x * kThreadsX + threadIdx.x), y = blockIdx.y * kThreadsY + threadIdx.y;
    if (x >= width || y >= height) return;
    const std::size_t offset = static_cast<std::size_t>(y) * width;
    const float4 sums = separable::device::row_filter4<kVector>(in + offset, x, width, taps);
    separable::device::store4<kVector>(tmp + offset, x, width, sums);
}

template <bool kVector>
__global__ void column_pass_register(const float* __restrict__ tmp, float* __restrict__ out, int width, int height,
                                     int taps) {
    const int x = 4 * (blockIdx.x * kThreadsX + threadIdx.x);
    const int y0 = kRows * (blockIdx.y * kThreadsY + threadIdx.y);
    if (x >= width || y0 >= height) return;
    const int r = taps / 2;
    float4 sum[kRows];
#pragma unroll
    for (int j = 0; j < kRows; ++j) sum[j] = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
    for (int m = 0; m < taps + kRows - 1; ++m) {  // row y0 - r + m of the window
        const int y = separable::clamp_index(y0 - r + m, height);
        const float4 v = separable::device::load4<kVector>(tmp + static_cast<std::size_t>(y) * width, x, width);
#pragma unroll
        for (int j = 0; j < kRows; ++j) {
            const int k = m - j;  // the tap that multiplies row y0 - r + m for output row y0 + j
            if (k >= 0 && k < taps) sum[j] = fma4(filter_weights[k], v, sum[j]);
        }
    }
#pragma unroll
    for (int j = 0; j < kRows; ++j)
        if (y0 + j < height)
            separable::device::store4<kVector>(out + static_cast<std::size_t>(y0 + j) * width, x, width, sum[j]);
}

template <bool kVector>
void launch(const separable::Params& p, cudaStream_t stream) {
    const dim3 block(kThreadsX, kThreadsY);
    row_pass_register<kVector><<<separable::grid_for(p, 4 * kThreadsX, kThreadsY), block, 0, stream>>>(
        p.in, p.tmp, p.width, p.height, p.taps);
    CUDA_CHECK_LAUNCH();
    column_pass_register<kVector><<<separable::grid_for(p, 4 * kThreadsX, kRows * kThreadsY), block, 0, stream>>>(
        p.tmp, p.out, p.width, p.height, p.taps);
    CUDA_CHECK_LAUNCH();
}

}  // namespace

void separable::step06_register_window(const Params& p, cudaStream_t stream) {
    separable::device::upload_filter(p, stream);
    if (separable::device::rows_allow_float4(p, p.in, p.out) && separable::device::rows_allow_float4(p, p.tmp, p.tmp))
        launch<true>(p, stream);
    else
        launch<false>(p, stream);
}
