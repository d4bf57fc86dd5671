// Matmul, step 03: shared-memory tiles, 16 x 16.           (your starting point)
//
// This is the solution of step 02, renamed: correct, coalesced, and still
// loading every term of every dot product from global memory. Make each block
// of 16 x 16 threads stage tiles of A and B in shared memory, where the
// TODO(step 03) markers are. README.md in this folder explains the step;
// `meson compile -C build matmul-03 && build/lessons/matmul-03` runs it.
#include "tracks/matmul/device.cuh"
#include "tracks/matmul/kernels.h"

#include "course/check.h"

namespace {

// TODO(step 03): one square tile size instead, kTile = 16 (TILE_WIDTH in
// Seo's slides): blocks of 16 x 16 threads, each computing a 16 x 16 tile of
// C, one output per thread.
constexpr int kBlockCols = 32;
constexpr int kBlockRows = 8;

// TODO(step 03): tiles at the edges hang over A and B. The tile loads use
// load_or_zero(X, row, col, rows, cols) from tracks/matmul/device.cuh:
// X[row][col], or 0 outside X (a zero adds nothing to a dot product). Bring
// it into this namespace: using matmul::load_or_zero;

__global__ void __launch_bounds__(kBlockCols * kBlockRows)
    shared_tiles(const float* __restrict__ A, const float* __restrict__ B, float* __restrict__ C, int M, int N, int K) {
    // TODO(step 03): two __shared__ float arrays, As[kTile][kTile] and
    // Bs[kTile][kTile].
    const int col = blockIdx.x * kBlockCols + threadIdx.x;  // consecutive threads: consecutive columns
    const int row = blockIdx.y * kBlockRows + threadIdx.y;
    // TODO(step 03): no early return any more: every thread of the block must
    // reach every __syncthreads(), and threads outside C still load their
    // share of the tiles. Guard only the final store.
    if (row >= M || col >= N) return;
    float sum = 0.0f;
    // TODO(step 03): phases of kTile terms: for k0 = 0, kTile, 2 kTile, ... < K:
    //   1. thread (tx, ty) loads A[row][k0 + tx] into As[ty][tx] and
    //      B[k0 + ty][col] into Bs[ty][tx] (zeros outside A and B);
    //   2. __syncthreads(): the tiles are complete;
    //   3. sum += As[ty][k] * Bs[k][tx] for k = 0 .. kTile - 1;
    //   4. __syncthreads(): everyone is done with them before the next phase
    //      overwrites them.
    for (int k = 0; k < K; ++k) sum += A[row * K + k] * B[k * N + col];
    C[row * N + col] = sum;
}

}  // namespace

void matmul::step03_shared_tiles(const float* A, const float* B, float* C, int M, int N, int K, cudaStream_t stream) {
    // TODO(step 03): kTile x kTile blocks, and a grid of kTile x kTile tiles.
    const dim3 block(kBlockCols, kBlockRows);
    const dim3 grid = grid_for(N, kBlockCols, M, kBlockRows);  // x over columns, y over rows
    shared_tiles<<<grid, block, 0, stream>>>(A, B, C, M, N, K);
    CUDA_CHECK_LAUNCH();
}

// The kernel's registers and shared memory, for the ladder's last columns.
cudaFuncAttributes matmul::step03_shared_tiles_attributes() { return attributes_of(shared_tiles); }
