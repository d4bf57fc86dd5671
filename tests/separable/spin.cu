#include "separable/spin.h"

#include "course/check.h"

namespace {

__device__ unsigned long long global_ns() {
    unsigned long long ns;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(ns));
    return ns;
}

__global__ void spin(unsigned long long ns) {
    const unsigned long long start = global_ns();
    while (global_ns() - start < ns) {
    }
}

}  // namespace

void separable::testing::enqueue_spin(cudaStream_t stream, double ms) {
    spin<<<1, 1, 0, stream>>>(static_cast<unsigned long long>(ms * 1e6));
    CUDA_CHECK_LAUNCH();
}
