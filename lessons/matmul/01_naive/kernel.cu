// Matmul, step 01: one thread per output element.          (your starting point)
//
// Write the kernel body: the thread for (row, col) computes C[row][col], the
// dot product of row `row` of A with column `col` of B. The launcher below is
// complete; README.md in this folder explains the step, and
// `meson compile -C build matmul-01 && build/lessons/matmul-01 --size 1024`
// runs your kernel against the CPU reference.
//
// All matrices are row-major: A is M x K, so A[row][k] is A[row * K + k];
// B is K x N, so B[k][col] is B[k * N + col]; C is M x N.
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
    // TODO(step 01): this thread's output. For this step, on purpose,
    // threadIdx.x walks down the rows (step 02 is about why that is slow):
    //     row = blockIdx.x * kBlockRows + threadIdx.x
    //     col = blockIdx.y * kBlockCols + threadIdx.y
    //
    // TODO(step 01): the grid is rounded up to whole blocks, so some threads
    // fall outside C: if row >= M or col >= N, return.
    //
    // TODO(step 01): sum A[row][k] * B[k][col] over k = 0 .. K - 1 in a
    // float, and store the sum into C[row][col].
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
