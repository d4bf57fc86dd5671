// A plant for the grading's self-test (tests/test_own_kernels_plants.cpp):
// step 03's launcher as a student could write it after reading the grading
// test, which links the reference solution of the step to race it. It
// launches a kernel of its own that does nothing useful, then hands the work
// to the reference solution: the sum is exact and as fast as the reference's,
// so exactness and the speed rule pass it; the check that every kernel
// launched is the kernel.cu's own fails it.
#include "tracks/reduction/kernels.h"

namespace reduction::solution {
decltype(::reduction::step03_sequential) step03_sequential;
}  // namespace reduction::solution

namespace {

__global__ void looks_busy(long long* scratch) {
    if (threadIdx.x == 0 && blockIdx.x == 0) scratch[0] = 0;
}

}  // namespace

void reduction::step03_sequential(const int* in, std::size_t n, long long* sum, long long* scratch,
                                  cudaStream_t stream) {
    looks_busy<<<1, 32, 0, stream>>>(scratch);
    reduction::solution::step03_sequential(in, n, sum, scratch, stream);
}
