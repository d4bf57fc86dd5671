// Matmul, step 01: one thread per output element, uncoalesced.
//
// The most direct kernel: thread (row, col) computes the dot product of row
// `row` of A with column `col` of B and writes C[row][col]. Every term costs
// two 4-byte loads from global memory for one fused multiply-add (2 FLOP):
// 4 bytes per FLOP, the ratio Seo's slides start from ("CUDA Performance
// Consideration"; see the References in the course's top-level README.md).
//
// The mapping is backwards on purpose: threadIdx.x, the index that varies
// fastest inside a warp, walks down the rows. The 32 threads of a warp then
// share one column of B (one address: a broadcast) but read 32 different rows
// of A, 4 * K bytes apart: 32 separate 32-byte sectors for 128 useful bytes,
// and the same again for the 32 stores to C. Step 02 swaps the two indices
// and nothing else.
#include "tracks/matmul/device.cuh"
#include "tracks/matmul/kernels.h"

#include "course/check.h"

namespace {

// 32 x 8 = 256 threads: x (32, a whole warp) runs along the rows of C.
constexpr int kBlockRows = 32;
constexpr int kBlockCols = 8;

__global__ void __launch_bounds__(kBlockRows * kBlockCols)
    naive_uncoalesced(const float* __restrict__ A, const float* __restrict__ B, float* __restrict__ C, int M, int N,
                      int K) {
    const int row = blockIdx.x * kBlockRows + threadIdx.x;  // consecutive threads: consecutive rows
    const int col = blockIdx.y * kBlockCols + threadIdx.y;
    // The grid is rounded up to whole blocks: threads past the edge do nothing.
    if (row >= M || col >= N) return;
    float sum = 0.0f;
    for (int k = 0; k < K; ++k) sum += A[row * K + k] * B[k * N + col];
    C[row * N + col] = sum;
}

}  // namespace

void matmul::step01_naive(const float* A, const float* B, float* C, int M, int N, int K, cudaStream_t stream) {
    const dim3 block(kBlockRows, kBlockCols);
    const dim3 grid = grid_for(M, kBlockRows, N, kBlockCols);  // x over rows, y over columns
    naive_uncoalesced<<<grid, block, 0, stream>>>(A, B, C, M, N, K);
    CUDA_CHECK_LAUNCH();
}

// The kernel's registers and shared memory, for the ladder's last columns.
cudaFuncAttributes matmul::step01_naive_attributes() { return attributes_of(naive_uncoalesced); }
