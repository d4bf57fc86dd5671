// Host-side helpers that launchers in several tracks share. Each is
// introduced, and explained, by the first step that needs it:
//
//   aligned16        basics 02: may a pointer be read as float4 (16 bytes)?
//   resident_blocks  basics 02: one wave of blocks, as many as the GPU holds
//                    at once (used again by reduction 07 to 09)
//   image_grid       the image tracks' grid_for: blocks over a whole image
//   allow_dynamic_shared
//                    occupancy 04: dynamic shared memory past 48 KiB (used
//                    again by occupancy 05 and 06)
//   attributes_of    the matmul and hgemm ladders' "regs" and "smem/block"
//                    columns: a kernel's registers and static shared memory
#pragma once

#include "course/check.h"

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>

namespace course {

// True if `p` is 16-byte aligned, as a float4 (or int4) access needs.
// cudaMalloc returns 256-byte aligned memory, but a pointer into the middle
// of an array (a + 1) need not be.
inline bool aligned16(const void* p) { return reinterpret_cast<std::uintptr_t>(p) % 16 == 0; }

// cudaFuncGetAttributes of `kernel` (a __global__ function, or one
// instantiation of a template): its registers, static shared memory and local
// memory per thread, for a ladder's resource columns.
template <typename Kernel>
cudaFuncAttributes attributes_of(Kernel kernel) {
    cudaFuncAttributes attributes{};
    CUDA_CHECK(cudaFuncGetAttributes(&attributes, kernel));
    return attributes;
}

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

// The grid that covers a width x height image when each block covers
// block_width x block_height pixels. Throws course::Error, naming `track`, if
// the image needs more than the 65535 blocks a grid's y may have.
inline dim3 image_grid(const std::string& track, int width, int height, int block_width, int block_height) {
    const long long blocks_x = (width + static_cast<long long>(block_width) - 1) / block_width;
    const long long blocks_y = (height + static_cast<long long>(block_height) - 1) / block_height;
    if (blocks_y > 65535)
        throw Error(track + ": the image is too tall for a grid of blocks " + std::to_string(block_height) +
                    " rows high");
    return dim3(static_cast<unsigned>(blocks_x), static_cast<unsigned>(blocks_y));
}

// Lets `kernel` (a __global__ function, or one instantiation of a template)
// be launched with `bytes` of dynamic shared memory per block. Up to 48 KiB
// needs nothing; above that a kernel must opt in
// (cudaFuncAttributeMaxDynamicSharedMemorySize), up to the device's limit
// (cudaDevAttrMaxSharedMemoryPerBlockOptin: 227 KiB on Hopper, 163 KiB on the
// A100, 64 KiB on Turing); past the limit this throws course::Error. Calls
// CUDA only when `bytes` is more than the kernel was last allowed, so calling
// it before every launch costs a lookup, and timed launches never call CUDA.
inline void allow_dynamic_shared(const void* kernel, std::size_t bytes) {
    static std::map<const void*, std::size_t> allowed;
    std::size_t& current = allowed[kernel];
    if (bytes <= current || bytes <= 48 * 1024) return;
    int device = 0, limit = 0;
    CUDA_CHECK(cudaGetDevice(&device));
    CUDA_CHECK(cudaDeviceGetAttribute(&limit, cudaDevAttrMaxSharedMemoryPerBlockOptin, device));
    if (bytes > static_cast<std::size_t>(limit))
        throw Error("the kernel asks for " + std::to_string(bytes) +
                    " bytes of shared memory per block; this GPU gives a block at most " + std::to_string(limit));
    CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(bytes)));
    current = bytes;
}

}  // namespace course
