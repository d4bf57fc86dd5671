// Device helpers of the separable track, introduced by step 06 (several
// outputs per thread, the window in registers, 16-byte loads) and used again
// by steps 07 and 08. Included by the kernel.cu files only (it needs nvcc).
//
//   filter_weights      the filter in __constant__ memory (as in steps 02-05)
//   upload_filter       copies params.weights there, on the stream
//   load4, store4       four floats at x..x+3 of a row: one 16-byte access
//                       when the row allows it, else four checked ones
//   row_filter4         the row pass at x..x+3 of one row, its window of
//                       taps + 3 pixels read once, as float4s
//   row_filter4_fixed   the same with the filter's length known at compile
//                       time (steps 07, 08): every loop unrolled, no tap-range
//                       checks left
#pragma once

#include "course/check.h"
#include "tracks/separable/kernels.h"

#include <cuda_runtime.h>

#include <cstdint>

namespace separable::device {

// One bank per kernel.cu that includes this header (without relocatable
// device code every file's kernels have their own constant memory), filled
// by that file's launcher: through upload_filter in step 06; steps 07 and 08
// upload a zero-padded copy of their own.
namespace {
__constant__ float filter_weights[kMaxTaps];
}  // namespace

inline void upload_filter(const Params& params, cudaStream_t stream) {
    CUDA_CHECK(cudaMemcpyToSymbolAsync(filter_weights, params.weights, params.taps * sizeof(float), 0,
                                       cudaMemcpyDeviceToDevice, stream));
}

// True when every row of the image starts on a 16-byte boundary, in and out
// alike: then x..x+3 at a multiple of 4 is one aligned float4.
inline bool rows_allow_float4(const Params& params, const float* in, const float* out) {
    return params.width % 4 == 0 && reinterpret_cast<std::uintptr_t>(in) % 16 == 0 &&
           reinterpret_cast<std::uintptr_t>(out) % 16 == 0;
}

// row[x..x+3], with x a multiple of 4. kVector: the rows allow float4 and the
// four lie inside the row; otherwise each is read on its own, its index
// clamped into the row (the filter's edge rule).
template <bool kVector>
__device__ __forceinline__ float4 load4(const float* __restrict__ row, int x, int width) {
    if (kVector && x >= 0 && x + 3 < width) return *reinterpret_cast<const float4*>(row + x);
    return make_float4(row[clamp_index(x, width)], row[clamp_index(x + 1, width)], row[clamp_index(x + 2, width)],
                       row[clamp_index(x + 3, width)]);
}

// row[x..x+3] = v, with x a multiple of 4; the part past the row's end is not
// written.
template <bool kVector>
__device__ __forceinline__ void store4(float* __restrict__ row, int x, int width, float4 v) {
    if (kVector && x + 3 < width) {
        *reinterpret_cast<float4*>(row + x) = v;
        return;
    }
    if (x < width) row[x] = v.x;
    if (x + 1 < width) row[x + 1] = v.y;
    if (x + 2 < width) row[x + 2] = v.z;
    if (x + 3 < width) row[x + 3] = v.w;
}

__device__ __forceinline__ float4 fma4(float w, float4 v, float4 acc) {
    return make_float4(fmaf(w, v.x, acc.x), fmaf(w, v.y, acc.y), fmaf(w, v.z, acc.z), fmaf(w, v.w, acc.w));
}

// The row pass at x..x+3 (x a multiple of 4) of `row`: output x+j sums
// w[k] * row[clamp(x + j + k - r)]. The four outputs share a window of
// taps + 3 pixels, from x - r to x + 3 + r; it is read in aligned groups of
// four (float4s from the multiple of 4 at or below x - r), each pixel once,
// and each pixel is added into every output whose window holds it. The
// groups' and the outputs' loops are unrolled, so the window and the four
// sums stay in registers; only the loop over groups depends on taps.
template <bool kVector>
__device__ __forceinline__ float4 row_filter4(const float* __restrict__ row, int x, int width, int taps) {
    const int r = taps / 2;
    const int first = x - r;                                         // the window's first pixel
    const int base = first >= 0 ? first & ~3 : -((3 - first) & ~3);  // the multiple of 4 at or below it
    const int shift = first - base;                                  // 0..3
    const int groups = (shift + taps + 3 + 3) / 4;
    float sum[4] = {0.0f, 0.0f, 0.0f, 0.0f};
    for (int g = 0; g < groups; ++g) {
        const float4 v4 = load4<kVector>(row, base + 4 * g, width);
        const float v[4] = {v4.x, v4.y, v4.z, v4.w};
#pragma unroll
        for (int e = 0; e < 4; ++e) {
            const int m = 4 * g + e - shift;  // the pixel's place in the window: x - r + m
#pragma unroll
            for (int j = 0; j < 4; ++j) {
                const int k = m - j;  // the tap that multiplies it for output x + j
                if (k >= 0 && k < taps) sum[j] = fmaf(filter_weights[k], v[e], sum[j]);
            }
        }
    }
    return make_float4(sum[0], sum[1], sum[2], sum[3]);
}

// row_filter4 for a filter of exactly kTaps taps. The window's offset from
// an aligned float4 and the number of float4s are then constants, every loop
// unrolls, every window index is known to the compiler, and what is left is
// kGroups loads and 4 * kTaps fused multiply-adds, with no tap-range checks
// (load4 still tests each group against the row's ends).
template <int kTaps, bool kVector>
__device__ __forceinline__ float4 row_filter4_fixed(const float* __restrict__ row, int x, int width) {
    constexpr int kRadius = kTaps / 2;
    constexpr int kShift = ((-kRadius) % 4 + 4) % 4;       // (x - r) minus the multiple of 4 below it
    constexpr int kGroups = (kShift + kTaps + 3 + 3) / 4;  // float4s that hold the window
    const int base = x - kRadius - kShift;                 // a multiple of 4, as x is
    float window[4 * kGroups];
#pragma unroll
    for (int g = 0; g < kGroups; ++g) {
        const float4 v = load4<kVector>(row, base + 4 * g, width);
        window[4 * g] = v.x;
        window[4 * g + 1] = v.y;
        window[4 * g + 2] = v.z;
        window[4 * g + 3] = v.w;
    }
    float sum[4] = {0.0f, 0.0f, 0.0f, 0.0f};
#pragma unroll
    for (int k = 0; k < kTaps; ++k)
#pragma unroll
        for (int j = 0; j < 4; ++j) sum[j] = fmaf(filter_weights[k], window[kShift + j + k], sum[j]);
    return make_float4(sum[0], sum[1], sum[2], sum[3]);
}

}  // namespace separable::device
