// A plant for the grading's self-test (tests/test_own_kernels_plants.cpp):
// step 03's launcher as a student could write it after reading how the
// grading looks up the kernels a launcher runs (tests/own_kernels.h: from a
// capture). While its stream is being captured it launches a kernel of its
// own; otherwise it hands the work to the reference solution the grading test
// links. The captures see only its own kernel, and the sums it returns are
// the reference's: exact, and as fast. The check of what the kernel.cu calls
// (tests/library_calls.h) fails it: it calls the reference solution.
#include "tracks/reduction/kernels.h"

#include "course/check.h"

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
    cudaStreamCaptureStatus capture = cudaStreamCaptureStatusNone;
    CUDA_CHECK(cudaStreamIsCapturing(stream, &capture));
    if (capture != cudaStreamCaptureStatusNone) {
        looks_busy<<<1, 32, 0, stream>>>(scratch);
        CUDA_CHECK_LAUNCH();
        return;
    }
    reduction::solution::step03_sequential(in, n, sum, scratch, stream);
}
