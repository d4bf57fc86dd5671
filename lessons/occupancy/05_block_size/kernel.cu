// Occupancy, step 05: threads per block as the limiter.
//                                                          (your starting point)
// This is step 04's solution, its kernel and launcher renamed to this step's,
// with a TODO(step 05) marker where this step changes it; README.md in this
// folder explains the change. Build and run:
// meson compile -C build occupancy-05 && build/lessons/occupancy-05
#include "tracks/occupancy/device.cuh"
#include "tracks/occupancy/kernels.h"

namespace {

constexpr int kThreads = 256;

__global__ void stream_block_size(const unsigned* __restrict__ in, unsigned* __restrict__ out, std::size_t n) {
    // One element per iteration, one load in flight per thread.
    const std::size_t stride = std::size_t{gridDim.x} * blockDim.x;
#pragma unroll 1
    for (std::size_t i = std::size_t{blockIdx.x} * blockDim.x + threadIdx.x; i < n; i += stride)
        out[i] = occupancy::stream_transform(in[i]);
}

}  // namespace

void occupancy::step05_block_size(const unsigned* in, unsigned* out, std::size_t n, const StreamShape& shape,
                                  cudaStream_t stream) {
    // The third launch parameter: dynamic shared memory per block.
    allow_dynamic_shared(reinterpret_cast<const void*>(&stream_block_size), shape.shared_bytes);
    // TODO(step 05): launch with shape.threads threads per block, and a grid
    // for that block size (stream_blocks takes it), instead of kThreads; then
    // delete kThreads, which nothing uses any more (nvcc warns otherwise).
    stream_block_size<<<stream_blocks(n, kThreads, 1), kThreads, shape.shared_bytes, stream>>>(in, out, n);
    CUDA_CHECK_LAUNCH();
}
