// A plant for the grading's self-test (tests/test_own_kernels_plants.cpp):
// step 03's launcher calling cuBLAS (the track's library rung), with a kernel
// of its own defined but never launched, and the attributes of the reference
// solution's kernel, which the grading test links. C is right and faster than
// the reference; the check that every kernel launched is the kernel.cu's own
// fails it.
#include "tracks/matmul/kernels.h"
#include "tracks/matmul/track.h"

namespace matmul::solution {
decltype(::matmul::step03_shared_tiles_attributes) step03_shared_tiles_attributes;
}  // namespace matmul::solution

namespace {

__global__ void never_launched(float* C) { C[threadIdx.x] = 0.0f; }

}  // namespace

void matmul::step03_shared_tiles(const float* A, const float* B, float* C, int M, int N, int K, cudaStream_t stream) {
    (void)never_launched;
    matmul::cublas_sgemm(A, B, C, M, N, K, stream);
}

cudaFuncAttributes matmul::step03_shared_tiles_attributes() {
    return matmul::solution::step03_shared_tiles_attributes();
}
