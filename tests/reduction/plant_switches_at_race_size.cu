// A plant for the grading's self-test (tests/test_own_kernels_plants.cpp):
// step 03's launcher as a student could write it after reading the grading
// test, which sums at most 2^22 + 3 ints for exactness and races at 2^24. At
// the correctness sizes it sums with a kernel of its own (exact, and nothing
// like the lesson); from 2^24 on it hands the work to the reference solution
// the test links, which wins the race. Exactness passes it and the race would
// too; the own-kernels check at the race's size fails it.
#include "tracks/reduction/kernels.h"

#include <algorithm>

namespace reduction::solution {
decltype(::reduction::step03_sequential) step03_sequential;
}  // namespace reduction::solution

namespace {

__global__ void sum_with_atomics(const int* __restrict__ in, std::size_t n, long long* __restrict__ sum) {
    long long v = 0;
    for (std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x; i < n;
         i += std::size_t{gridDim.x} * blockDim.x)
        v += in[i];
    for (int offset = 16; offset > 0; offset >>= 1) v += __shfl_down_sync(0xffffffffu, v, offset);
    // Two's complement: adding the bits as unsigned adds the signed values.
    if (threadIdx.x % 32 == 0)
        atomicAdd(reinterpret_cast<unsigned long long*>(sum), static_cast<unsigned long long>(v));
}

}  // namespace

void reduction::step03_sequential(const int* in, std::size_t n, long long* sum, long long* scratch,
                                  cudaStream_t stream) {
    if (n >= (std::size_t{1} << 24)) {
        reduction::solution::step03_sequential(in, n, sum, scratch, stream);
        return;
    }
    CUDA_CHECK(cudaMemsetAsync(sum, 0, sizeof(long long), stream));
    const unsigned int blocks = static_cast<unsigned int>(std::min<std::size_t>((n + 255) / 256, 1024));
    sum_with_atomics<<<std::max(blocks, 1u), 256, 0, stream>>>(in, n, sum);
    CUDA_CHECK_LAUNCH();
}
