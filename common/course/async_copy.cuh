// Asynchronous copies from global into shared memory (cp.async), for the
// kernels of two tracks: matmul step 09 (and 10) and hgemm step 04 (and
// later), each of which explains them in its README.
//
// From compute capability 8.0 on, cp.async copies global memory straight into
// shared memory: the thread issues the copy and goes on, no register holds
// the data, and the copy lands later. Copies are grouped: copy_async_commit()
// closes the group of the copies this thread issued since the last commit,
// and copy_async_wait<N>() waits until at most N of this thread's groups are
// still in flight. Other threads see the data only after a barrier that
// follows the wait.
//
// Below compute capability 8.0 (Turing) there is no cp.async: the same calls
// load and store at once, so a kernel written with them runs correctly there,
// without the overlap (note_if_copies_synchronously says so).
//
// kBytes is 4 or 16, and both addresses are aligned to it. The 16-byte copy
// is cp.async.cg (cached in L2 only: each piece of a tile is read once per
// block), the 4-byte one cp.async.ca (through L1; .cg takes 16 bytes only).
//
// Included by .cu files only (it needs nvcc).
#pragma once

#include "course/check.h"

#include <cuda_runtime.h>

#include <cstdio>
#include <set>
#include <string>

namespace course::device {

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
// the kBytes is filled with zeros (the zero padding of a tile at the edge of
// a matrix). The caller passes a `src` that is a valid address even then
// (the matrix's first element), so that no out-of-range address is ever
// formed.
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

}  // namespace course::device

namespace course {

// Host side: a kernel compiled for compute capability 8.0 or later copies
// with cp.async. Which code a GPU runs is decided when the program loads
// (the newest build of the kernel that the GPU can run), so the launcher asks
// the loaded kernel: cudaFuncGetAttributes' ptxVersion is the virtual
// architecture it was compiled for (75 for Turing). Prints one line on stderr,
// the first time `step` asks, when its copies are the synchronous ones.
inline void note_if_copies_synchronously(const void* kernel, const char* step) {
    static std::set<std::string> noted;
    if (!noted.insert(step).second) return;
    cudaFuncAttributes attributes{};
    CUDA_CHECK(cudaFuncGetAttributes(&attributes, kernel));
    if (attributes.ptxVersion >= 80) return;
    std::fprintf(stderr,
                 "note: %s was built for compute capability %d.%d, which has no cp.async: its tiles are copied "
                 "with ordinary loads and stores, synchronously (the same pipeline, without the overlap)\n",
                 step, attributes.ptxVersion / 10, attributes.ptxVersion % 10);
}

}  // namespace course
