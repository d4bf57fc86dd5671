// Occupancy, step 05: threads per block as the limiter.
//
// Step 04's kernel launched with `shape.threads` threads per block. An SM
// holds at most so many blocks (32 on Hopper, 8 on the Fermi of J. Seo's
// slides), so small blocks leave warp slots empty however little they ask
// of registers and shared memory; and a block size that does not divide the
// SM's warp slots (768 threads of 2048) leaves some empty too. The grid is
// sized from the block (stream_blocks), so that only the block's shape
// changes from point to point.
#include "tracks/occupancy/device.cuh"
#include "tracks/occupancy/kernels.h"

namespace {

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
    const int threads = shape.threads;
    stream_block_size<<<stream_blocks(n, threads, 1), threads, shape.shared_bytes, stream>>>(in, out, n);
    CUDA_CHECK_LAUNCH();
}
