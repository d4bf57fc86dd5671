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

#include "course/check.h"
#include "course/launch_helpers.h"
#include "tracks/matmul/kernels.h"

#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>
#include <set>
#include <string>

namespace matmul {

// cudaFuncGetAttributes of `kernel` (a __global__ function, or one
// instantiation of a template), for the ladder's "regs" and "smem/block".
template <typename Kernel>
cudaFuncAttributes attributes_of(Kernel kernel) {
    cudaFuncAttributes attributes{};
    CUDA_CHECK(cudaFuncGetAttributes(&attributes, kernel));
    return attributes;
}

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

// Asynchronous copies (step 09). From compute capability 8.0 on, cp.async
// copies global memory straight into shared memory: the thread issues the
// copy and goes on, no register holds the data, and the copy lands later.
// Copies are grouped: copy_async_commit() closes the group of the copies this
// thread issued since the last commit, and copy_async_wait<N>() waits until
// at most N of this thread's groups are still in flight. Other threads see
// the data only after a barrier that follows the wait.
//
// Below compute capability 8.0 (Turing) there is no cp.async: the same calls
// load and store at once, so a kernel written with them runs correctly there,
// without the overlap (note_if_copies_synchronously says so).
//
// kBytes is 4 or 16, and both addresses are aligned to it. The 16-byte copy
// is cp.async.cg (cached in L2 only: each piece of a tile is read once per
// block), the 4-byte one cp.async.ca (through L1; .cg takes 16 bytes only).

// Copies kBytes from global `src` to shared `dst`; both inside their arrays.
template <int kBytes>
__device__ inline void copy_async(void* dst, const void* src) {
    static_assert(kBytes == 4 || kBytes == 16, "cp.async copies 4, 8 or 16 bytes; the course uses 4 and 16");
#if __CUDA_ARCH__ >= 800
    const unsigned to = static_cast<unsigned>(__cvta_generic_to_shared(dst));
    if constexpr (kBytes == 16)
        asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(to), "l"(src) : "memory");
    else
        asm volatile("cp.async.ca.shared.global [%0], [%1], 4;\n" ::"r"(to), "l"(src) : "memory");
#else
    if constexpr (kBytes == 16)
        *static_cast<float4*>(dst) = *static_cast<const float4*>(src);
    else
        *static_cast<float*>(dst) = *static_cast<const float*>(src);
#endif
}

// The same, or kBytes of zeros into `dst` when `inside` is false: the
// instruction's source size is then 0, so nothing is read and the rest of
// the kBytes is filled with zeros (the zero padding of load_or_zero). The
// caller passes a `src` that is a valid address even then (the matrix's
// first element), so that no out-of-range address is ever formed.
template <int kBytes>
__device__ inline void copy_async_or_zero(void* dst, const void* src, bool inside) {
    static_assert(kBytes == 4 || kBytes == 16, "cp.async copies 4, 8 or 16 bytes; the course uses 4 and 16");
#if __CUDA_ARCH__ >= 800
    const unsigned to = static_cast<unsigned>(__cvta_generic_to_shared(dst));
    const unsigned src_bytes = inside ? kBytes : 0;
    if constexpr (kBytes == 16)
        asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(to), "l"(src), "r"(src_bytes) : "memory");
    else
        asm volatile("cp.async.ca.shared.global [%0], [%1], 4, %2;\n" ::"r"(to), "l"(src), "r"(src_bytes) : "memory");
#else
    if constexpr (kBytes == 16)
        *static_cast<float4*>(dst) = inside ? *static_cast<const float4*>(src) : make_float4(0.0f, 0.0f, 0.0f, 0.0f);
    else
        *static_cast<float*>(dst) = inside ? *static_cast<const float*>(src) : 0.0f;
#endif
}

// Closes this thread's current group of copies (an empty group is allowed).
__device__ inline void copy_async_commit() {
#if __CUDA_ARCH__ >= 800
    asm volatile("cp.async.commit_group;\n" ::: "memory");
#endif
}

// Waits until at most kPending of this thread's groups are still in flight.
template <int kPending>
__device__ inline void copy_async_wait() {
#if __CUDA_ARCH__ >= 800
    asm volatile("cp.async.wait_group %0;\n" ::"n"(kPending) : "memory");
#endif
}

// Host side: a kernel compiled for compute capability 8.0 or later copies
// with cp.async. Which code a GPU runs is decided when the program loads
// (the newest build of the kernel that the GPU can run), so the launcher asks
// the loaded kernel: cudaFuncGetAttributes' ptxVersion is the virtual
// architecture it was compiled for (75 for Turing). Prints one line on stderr,
// the first time `step` asks, when its copies are the synchronous ones.
inline void note_if_copies_synchronously(const void* kernel, const char* step) {
    static std::set<std::string> noted;
    if (!noted.insert(step).second) return;
    const cudaFuncAttributes attributes = attributes_of(kernel);
    if (attributes.ptxVersion >= 80) return;
    std::fprintf(stderr,
                 "note: %s was built for compute capability %d.%d, which has no cp.async: its tiles are copied "
                 "with ordinary loads and stores, synchronously (the same pipeline, without the overlap)\n",
                 step, attributes.ptxVersion / 10, attributes.ptxVersion % 10);
}

}  // namespace matmul
