// Host-side helpers that launchers in several tracks share. Each is
// introduced, and explained, by the first step that needs it:
//
//   aligned16        basics 02: may a pointer be read as float4 (16 bytes)?
//   resident_blocks  basics 02: one wave of blocks, as many as the GPU holds
//                    at once (used again by reduction 07 to 09)
#pragma once

#include "course/check.h"

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

namespace course {

// True if `p` is 16-byte aligned, as a float4 (or int4) access needs.
// cudaMalloc returns 256-byte aligned memory, but a pointer into the middle
// of an array (a + 1) need not be.
inline bool aligned16(const void* p) { return reinterpret_cast<std::uintptr_t>(p) % 16 == 0; }

// How many blocks of `kernel` (a __global__ function, or one instantiation of
// a template), launched with `threads_per_block` threads and
// `dynamic_shared_bytes` of dynamic shared memory, the whole GPU holds at
// once: multiprocessors times resident blocks per multiprocessor. More would
// only queue behind the first wave. It asks the driver, so call it once (in a
// static) rather than on every launch.
template <typename Kernel>
std::size_t resident_blocks(Kernel kernel, int threads_per_block, std::size_t dynamic_shared_bytes = 0) {
    int device = 0, sm_count = 0, blocks_per_sm = 0;
    CUDA_CHECK(cudaGetDevice(&device));
    CUDA_CHECK(cudaDeviceGetAttribute(&sm_count, cudaDevAttrMultiProcessorCount, device));
    CUDA_CHECK(
        cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks_per_sm, kernel, threads_per_block, dynamic_shared_bytes));
    return static_cast<std::size_t>(sm_count) * static_cast<std::size_t>(blocks_per_sm);
}

}  // namespace course
