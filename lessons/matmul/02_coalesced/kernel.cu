// Matmul, step 02: one thread per output element, coalesced. (your starting point)
//
// This is the solution of step 01, renamed: correct, and slow. Change which
// thread computes which output, and nothing else, where the TODO(step 02)
// markers are: threadIdx.x, the index that varies fastest within a warp, must
// walk along a row of C instead of down a column. README.md in this folder
// explains why; `meson compile -C build matmul-02 && build/lessons/matmul-02`
// runs your kernel beside the step 01 solution.
#include "tracks/matmul/device.cuh"
#include "tracks/matmul/kernels.h"

#include "course/check.h"

namespace {

// TODO(step 02): 32 x 8 = 256 threads still, but x (32, a whole warp) should
// run along the columns of C: rename these two to say so, if you like.
constexpr int kBlockRows = 32;
constexpr int kBlockCols = 8;

__global__ void __launch_bounds__(kBlockRows * kBlockCols)
    naive_coalesced(const float* __restrict__ A, const float* __restrict__ B, float* __restrict__ C, int M, int N,
                    int K) {
    // TODO(step 02): swap the roles: col from blockIdx.x and threadIdx.x,
    // row from blockIdx.y and threadIdx.y.
    const int row = blockIdx.x * kBlockRows + threadIdx.x;  // consecutive threads: consecutive rows
    const int col = blockIdx.y * kBlockCols + threadIdx.y;
    // The grid is rounded up to whole blocks: threads past the edge do nothing.
    if (row >= M || col >= N) return;
    float sum = 0.0f;
    for (int k = 0; k < K; ++k) sum += A[row * K + k] * B[k * N + col];
    C[row * N + col] = sum;
}

}  // namespace

void matmul::step02_coalesced(const float* A, const float* B, float* C, int M, int N, int K, cudaStream_t stream) {
    // TODO(step 02): the grid follows: x over the columns (N), y over the rows
    // (M); grid_for(x_extent, x_tile, y_extent, y_tile).
    const dim3 block(kBlockRows, kBlockCols);
    const dim3 grid = grid_for(M, kBlockRows, N, kBlockCols);  // x over rows, y over columns
    naive_coalesced<<<grid, block, 0, stream>>>(A, B, C, M, N, K);
    CUDA_CHECK_LAUNCH();
}

// The kernel's registers and shared memory, for the ladder's last columns.
cudaFuncAttributes matmul::step02_coalesced_attributes() { return attributes_of(naive_coalesced); }
