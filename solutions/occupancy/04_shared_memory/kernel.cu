// Occupancy, step 04: shared memory per block as the limiter.
//
// Step 03's memory-bound kernel without the held registers, launched with
// `shape.shared_bytes` of dynamic shared memory per block. The kernel never
// touches it: the SM reserves it for every resident block all the same
// (resources are allocated per block, as J. Seo's slides say), so the more a
// block asks for, the fewer blocks fit in the SM's shared memory, and the
// fewer loads are in flight. Above 48 KiB a kernel must opt in to more
// (allow_dynamic_shared, course/launch_helpers.h).
#include "tracks/occupancy/device.cuh"
#include "tracks/occupancy/kernels.h"

namespace {

constexpr int kThreads = 256;

__global__ void stream_shared_memory(const unsigned* __restrict__ in, unsigned* __restrict__ out, std::size_t n) {
    // One element per iteration, one load in flight per thread.
    const std::size_t stride = std::size_t{gridDim.x} * blockDim.x;
#pragma unroll 1
    for (std::size_t i = std::size_t{blockIdx.x} * blockDim.x + threadIdx.x; i < n; i += stride)
        out[i] = occupancy::stream_transform(in[i]);
}

}  // namespace

void occupancy::step04_shared_memory(const unsigned* in, unsigned* out, std::size_t n, const StreamShape& shape,
                                     cudaStream_t stream) {
    // The third launch parameter: dynamic shared memory per block.
    allow_dynamic_shared(reinterpret_cast<const void*>(&stream_shared_memory), shape.shared_bytes);
    stream_shared_memory<<<stream_blocks(n, kThreads, 1), kThreads, shape.shared_bytes, stream>>>(in, out, n);
    CUDA_CHECK_LAUNCH();
}
