// Basics, step 01: one element per thread.
//
// The first kernel of the course, and the simplest correct one: launch one
// thread per element and let thread i compute c[i] = a[i] + b[i].
//
// Why it is already fast: the 32 threads of a warp have consecutive values of
// i, so their loads of a[i] touch one contiguous 128-byte stretch of memory,
// which the hardware serves as a few wide transactions ("coalescing"). Every
// byte fetched from DRAM is used. What it still costs: one thread per
// element means millions of threads, each doing the index arithmetic and the
// bounds check for a single add, and 4-byte loads, a quarter of the widest
// (16-byte) kind.
// Step 02 removes those costs.
#include "tracks/basics/kernels.h"

#include "course/check.h"

namespace {

constexpr int kThreadsPerBlock = 256;

__global__ void vector_add(const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ c,
                           std::size_t n) {
    // size_t, not int: an int index overflows past 2^31 elements (the unsigned
    // product blockIdx.x * blockDim.x past 2^32).
    const std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
    // The grid is rounded up to whole blocks, so the last block can run past n.
    if (i < n) c[i] = a[i] + b[i];
}

}  // namespace

void basics::step01_vector_add(const float* a, const float* b, float* c, std::size_t n, cudaStream_t stream) {
    // One thread per element, rounded up to whole blocks.
    const std::size_t blocks = (n + kThreadsPerBlock - 1) / kThreadsPerBlock;
    if (blocks > 0x7fffffffu) throw course::Error("step 01: n is too large for one thread per element");
    vector_add<<<static_cast<unsigned int>(blocks), kThreadsPerBlock, 0, stream>>>(a, b, c, n);
    CUDA_CHECK_LAUNCH();
}
