// Matmul, step 02: one thread per output element, coalesced.
//
// The same dot product per thread as step 01, with the two indices swapped:
// threadIdx.x now walks along a row of C. A warp's 32 threads then share one
// row of A (one address per k: a broadcast) and read 32 consecutive floats of
// a row of B (128 bytes: four 32-byte sectors, every byte used), and their
// stores to C are 32 consecutive floats too. This is the mapping of the
// first kernel in Seo's slides (col from threadIdx.x).
//
// What it still costs: every term of every dot product is loaded from global
// memory, so each element of A is loaded N times and each element of B M
// times. The caches (L1, L2) absorb much of it; step 03 stops relying on them.
#include "tracks/matmul/device.cuh"
#include "tracks/matmul/kernels.h"

#include "course/check.h"

namespace {

// 32 x 8 = 256 threads: x (32, a whole warp) runs along the columns of C.
constexpr int kBlockCols = 32;
constexpr int kBlockRows = 8;

__global__ void __launch_bounds__(kBlockCols * kBlockRows)
    naive_coalesced(const float* __restrict__ A, const float* __restrict__ B, float* __restrict__ C, int M, int N,
                    int K) {
    const int col = blockIdx.x * kBlockCols + threadIdx.x;  // consecutive threads: consecutive columns
    const int row = blockIdx.y * kBlockRows + threadIdx.y;
    if (row >= M || col >= N) return;
    float sum = 0.0f;
    for (int k = 0; k < K; ++k) sum += A[row * K + k] * B[k * N + col];
    C[row * N + col] = sum;
}

}  // namespace

void matmul::step02_coalesced(const float* A, const float* B, float* C, int M, int N, int K, cudaStream_t stream) {
    const dim3 block(kBlockCols, kBlockRows);
    const dim3 grid = grid_for(N, kBlockCols, M, kBlockRows);  // x over columns, y over rows
    naive_coalesced<<<grid, block, 0, stream>>>(A, B, C, M, N, K);
    CUDA_CHECK_LAUNCH();
}

// The kernel's registers and shared memory, for the ladder's last columns.
cudaFuncAttributes matmul::step02_coalesced_attributes() { return attributes_of(naive_coalesced); }
