// Helpers shared by the matmul kernels (the kernel.cu files of lessons/ and
// solutions/; they need nvcc). Each is introduced by the step that first needs
// it, and explained in that step's README:
//
//   attributes_of    every step: the kernel's registers and shared memory
//   load_or_zero     step 03: tiles that hang over the edge of A or B
//   load4, store4    step 06: 16-byte accesses, with a checked twin
//   fits_fast_path   step 06: when the 16-byte path is safe
//   spread           step 07: a thread's 8 rows (or columns) as two groups of 4
//   copy_async, copy_async_or_zero, copy_async_commit, copy_async_wait,
//   note_if_copies_synchronously
//                    step 09: global-to-shared copies that do not wait (cp.async)
#pragma once

#include "course/async_copy.cuh"
#include "course/check.h"
#include "course/launch_helpers.h"
#include "tracks/matmul/kernels.h"

#include <cuda_runtime.h>

#include <cstdint>

namespace matmul {

// The ladder's "regs" and "smem/block" come from course::attributes_of
// (course/launch_helpers.h), named here for the kernel files of this track.
using course::attributes_of;

// X is rows x cols, row-major: X[row][col], or 0 outside X. A zero term adds
// nothing to a dot product, so a tile that hangs over the edge of A or B is
// loaded padded with zeros and the arithmetic needs no special case.
__device__ inline float load_or_zero(const float* __restrict__ X, int row, int col, int rows, int cols) {
    return row < rows && col < cols ? X[row * cols + col] : 0.0f;
}

// The four floats X[row][col .. col + 3]. The fast path (kChecked = false) is
// one 16-byte load: the caller guarantees that it is 16-byte aligned and
// inside X (fits_fast_path). The checked path loads them one by one, with
// zeros outside X.
template <bool kChecked>
__device__ inline float4 load4(const float* __restrict__ X, int row, int col, int rows, int cols) {
    if constexpr (!kChecked) {
        return *reinterpret_cast<const float4*>(&X[row * cols + col]);
    } else {
        return make_float4(load_or_zero(X, row, col, rows, cols), load_or_zero(X, row, col + 1, rows, cols),
                           load_or_zero(X, row, col + 2, rows, cols), load_or_zero(X, row, col + 3, rows, cols));
    }
}

// Stores values[0..3] into C[row][col .. col + 3] (C is M x N): one 16-byte
// store on the fast path, otherwise only the elements inside C.
template <bool kChecked>
__device__ inline void store4(float* __restrict__ C, int row, int col, int M, int N, const float* values) {
    if constexpr (!kChecked) {
        *reinterpret_cast<float4*>(&C[row * N + col]) = make_float4(values[0], values[1], values[2], values[3]);
    } else {
#pragma unroll
        for (int j = 0; j < 4; ++j)
            if (row < M && col + j < N) C[row * N + col + j] = values[j];
    }
}

// True when a kernel with BM x BN tiles and phases of BK terms may use
// 16-byte accesses everywhere: the shape is a multiple of the tiles (so every
// tile is whole, and K and N are multiples of 4 when BK and BN are, so every
// row starts 16-byte aligned) and the matrices themselves start 16-byte
// aligned.
inline bool fits_fast_path(const float* A, const float* B, const float* C, int M, int N, int K, int BM, int BN,
                           int BK) {
    return M % BM == 0 && N % BN == 0 && K % BK == 0 && course::aligned16(A) && course::aligned16(B) &&
           course::aligned16(C);
}

// Number i (0..7) of the 8 rows, or columns, that thread t owns within a tile
// `extent` wide: 4t .. 4t + 3, then the same half a tile further on. Threads
// t and t + 1 then read neighbouring 16-byte pieces of a row of shared memory.
__device__ inline int spread(int t, int i, int extent) { return (i < 4 ? 0 : extent / 2) + 4 * t + i % 4; }

// Asynchronous copies (step 09): global-to-shared copies that do not wait
// (cp.async), from course/async_copy.cuh, which the hgemm track uses too.
// That file explains them: groups, commits, waits, the zero-filling copy at
// the edges, and Turing, where the same calls copy synchronously.
using course::note_if_copies_synchronously;
using course::device::copy_async;
using course::device::copy_async_commit;
using course::device::copy_async_or_zero;
using course::device::copy_async_wait;

}  // namespace matmul
