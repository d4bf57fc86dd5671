// Basics, step 01: one element per thread.                 (your starting point)
//
// Write the kernel body: thread i of the grid computes c[i] = a[i] + b[i].
// The launcher below is complete; README.md in this folder explains the step,
// and `meson compile -C build basics-01 && build/lessons/basics-01`
// runs your kernel against the CPU reference.
#include "tracks/basics/kernels.h"

#include "course/check.h"

namespace {

constexpr int kThreadsPerBlock = 256;

__global__ void vector_add(const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ c,
                           std::size_t n) {
    // TODO(step 01): compute this thread's global index i from blockIdx.x,
    // blockDim.x and threadIdx.x. Do the arithmetic in std::size_t: in int it
    // overflows past 2^31 elements.
    //
    // TODO(step 01): the grid is rounded up to whole blocks, so the last block
    // may run past the end of the arrays: only if i < n, store a[i] + b[i]
    // into c[i].
}

}  // namespace

void basics::step01_vector_add(const float* a, const float* b, float* c, std::size_t n, cudaStream_t stream) {
    // One thread per element, rounded up to whole blocks.
    const std::size_t blocks = (n + kThreadsPerBlock - 1) / kThreadsPerBlock;
    if (blocks > 0x7fffffffu) throw course::Error("step 01: n is too large for one thread per element");
    vector_add<<<static_cast<unsigned int>(blocks), kThreadsPerBlock, 0, stream>>>(a, b, c, n);
    CUDA_CHECK_LAUNCH();
}
