// What a launcher enqueues, read without running it: the harness captures the
// launcher into a CUDA graph and lists its kernel launches (grid, block,
// shared memory, and the compiled kernel's registers and static shared memory
// from cudaFuncGetAttributes). Grading tests use it for properties that show
// in the launch rather than in the time: "one pass" is one kernel launch, a
// grid-stride step launches a bounded grid, warp shuffles shrink the shared
// memory, and so on.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <functional>
#include <vector>

namespace course {

struct KernelLaunch {
    // nullptr for a kernel launched through the driver API (a library's, such
    // as cuBLAS's), which the runtime cannot describe: its grid, block and
    // attributes are left empty too.
    const void* function = nullptr;
    dim3 grid, block;
    std::size_t dynamic_shared_bytes = 0;
    cudaFuncAttributes attributes{};  // numRegs, sharedSizeBytes (static), localSizeBytes, ...

    std::size_t blocks() const { return std::size_t{grid.x} * grid.y * grid.z; }
    std::size_t threads_per_block() const { return std::size_t{block.x} * block.y * block.z; }
    std::size_t shared_bytes() const { return attributes.sharedSizeBytes + dynamic_shared_bytes; }
};

struct LaunchRecord {
    std::vector<KernelLaunch> kernels;  // in the order they were enqueued
    std::size_t other_operations = 0;   // memsets, copies, ...
};

// Captures `enqueue(stream)` into a graph (nothing runs) and describes it.
// `enqueue` must only enqueue work on the stream it is given.
LaunchRecord record_launches(const std::function<void(cudaStream_t)>& enqueue);

// Captures `enqueue(stream)`, which must launch exactly one kernel (and may
// enqueue copies and memsets, which are left out), then runs that kernel on
// `stream` with `grid` and `block` instead of its own: the same arguments, the
// same dynamic shared memory. A probe of how a kernel maps its threads to its
// work (a grading test runs a block's first warp alone and sees which outputs
// it writes). Returns the launch as captured; the run is not waited for.
KernelLaunch run_captured_kernel_as(const std::function<void(cudaStream_t)>& enqueue, dim3 grid, dim3 block,
                                    cudaStream_t stream);

}  // namespace course
