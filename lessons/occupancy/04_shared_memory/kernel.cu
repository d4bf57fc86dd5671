// Occupancy, step 04: shared memory per block as the limiter.
//                                                          (your starting point)
// This is step 03's solution, its kernel and launcher renamed to this step's,
// without the held registers and the variants (done for you: this step
// varies shared memory alone), with TODO(step 04) markers where this step
// changes it; README.md in this folder explains the change. Build and run:
// meson compile -C build occupancy-04 && build/lessons/occupancy-04
#include "tracks/occupancy/device.cuh"
#include "tracks/occupancy/kernels.h"  // TODO(step 04): done for you (no variants)

namespace {

constexpr int kThreads = 256;

// TODO(step 04): done for you: one kernel, no values held.
__global__ void stream_shared_memory(const unsigned* __restrict__ in, unsigned* __restrict__ out, std::size_t n) {
    // One element per iteration, one load in flight per thread.
    const std::size_t stride = std::size_t{gridDim.x} * blockDim.x;
#pragma unroll 1
    for (std::size_t i = std::size_t{blockIdx.x} * blockDim.x + threadIdx.x; i < n; i += stride)
        out[i] = occupancy::stream_transform(in[i]);
    // TODO(step 04): done for you: nothing held, nothing to fold.
}

}  // namespace

void occupancy::step04_shared_memory(const unsigned* in, unsigned* out, std::size_t n, const StreamShape& shape,
                                     cudaStream_t stream) {
    // TODO(step 04): launch with shape.shared_bytes of dynamic shared memory
    // per block (the third launch parameter), and let the kernel have that
    // much: allow_dynamic_shared (course/launch_helpers.h) opts it in above
    // 48 KiB. Until then every point of the sweep launches with none.
    stream_shared_memory<<<stream_blocks(n, kThreads, 1), kThreads, 0, stream>>>(in, out, n);
    CUDA_CHECK_LAUNCH();
}
