// A plant for the grading's self-test (tests/hgemm/test_structure_plants.cpp):
// a launcher whose kernel takes a tensor map for A and one for B, as a TMA
// kernel does, and never uses them. It computes C = A * B one output per
// thread, straight from global memory, so it is right at every shape, and
// its parameters are what a kernel that copies with the TMA takes: only its
// machine code shows that nothing copies through the maps (no UTMALDG, the
// instruction cp.async.bulk.tensor compiles to). Step 06's tensor-map check
// must fail it.
#include "tracks/hgemm/hopper.h"
#include "tracks/hgemm/kernels.h"

#include "course/check.h"

#include <cuda.h>

namespace {

__global__ void maps_unused(const __grid_constant__ CUtensorMap a_map, const __grid_constant__ CUtensorMap b_map,
                            const __half* __restrict__ A, const __half* __restrict__ B, float* __restrict__ C, int M,
                            int N, int K) {
    (void)a_map;
    (void)b_map;
    const int col = blockIdx.x * blockDim.x + threadIdx.x, row = blockIdx.y;
    if (row >= M || col >= N) return;
    float sum = 0.0f;
    for (int k = 0; k < K; ++k) sum += __half2float(A[row * K + k]) * __half2float(B[k * N + col]);
    C[row * N + col] = sum;
}

}  // namespace

namespace hgemm::plants {

void maps_unused(const __half* A, const __half* B, float* C, int M, int N, int K, cudaStream_t stream) {
    // The maps step 06 makes (boxes of 128 x 64 and 64 x 64 halves), where the
    // shape allows them, as the graded launchers do.
    CUtensorMap a_map{}, b_map{};
    if (K % 8 == 0 && N % 8 == 0) {
        a_map = hgemm::tensor_map(A, M, K, K, 128, 64, "the maps-unused plant");
        b_map = hgemm::tensor_map(B, K, N, N, 64, 64, "the maps-unused plant");
    }
    const dim3 block(128), grid((N + 127) / 128, M);
    ::maps_unused<<<grid, block, 0, stream>>>(a_map, b_map, A, B, C, M, N, K);
    CUDA_CHECK_LAUNCH();
}

}  // namespace hgemm::plants
