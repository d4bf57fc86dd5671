// Matmul, step 03: shared-memory tiles, 16 x 16.
//
// A block of 16 x 16 threads computes a 16 x 16 tile of C, as in step 02 one
// output per thread. What changes is where the inputs come from: the dot
// products are cut into phases of 16 terms. In each phase the block copies a
// 16 x 16 tile of A and one of B into shared memory, every thread loading one
// element of each, and then every thread reads its 16 terms from there. Each
// element loaded from global memory is used by 16 threads: 16 times fewer
// global loads than step 02 (2 N^2 (N / 16) instead of 2 N^3 for N x N).
//
// Two barriers per phase (__syncthreads), as in Seo's slides:
//   1. after the loads: nobody reads a tile before all of it is written;
//   2. after the reads: nobody overwrites a tile in the next phase while a
//      slower thread still reads it in this one.
// Every thread of the block must reach every barrier, so threads outside C
// do not return early: they load zeros and skip only the final store.
//
// Shapes that are not multiples of 16: a tile element outside A or B is
// loaded as 0, and 0 * x adds nothing, so the partial tiles at the edges
// need no special case in the inner loop.
#include "tracks/matmul/device.cuh"
#include "tracks/matmul/kernels.h"

#include "course/check.h"

namespace {

// From tracks/matmul/device.cuh.
using matmul::load_or_zero;

constexpr int kTile = 16;  // TILE_WIDTH in Seo's slides: 256 threads per block

__global__ void __launch_bounds__(kTile * kTile)
    shared_tiles(const float* __restrict__ A, const float* __restrict__ B, float* __restrict__ C, int M, int N, int K) {
    __shared__ float As[kTile][kTile];
    __shared__ float Bs[kTile][kTile];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int row = blockIdx.y * kTile + ty;
    const int col = blockIdx.x * kTile + tx;

    float sum = 0.0f;
    for (int k0 = 0; k0 < K; k0 += kTile) {
        // Consecutive threads (tx) load consecutive floats of a row: coalesced.
        As[ty][tx] = load_or_zero(A, row, k0 + tx, M, K);
        Bs[ty][tx] = load_or_zero(B, k0 + ty, col, K, N);
        __syncthreads();  // 1: the tiles are complete
        for (int k = 0; k < kTile; ++k) sum += As[ty][k] * Bs[k][tx];
        __syncthreads();  // 2: everyone is done with them
    }
    if (row < M && col < N) C[row * N + col] = sum;
}

}  // namespace

void matmul::step03_shared_tiles(const float* A, const float* B, float* C, int M, int N, int K, cudaStream_t stream) {
    const dim3 block(kTile, kTile);
    const dim3 grid = grid_for(N, kTile, M, kTile);
    shared_tiles<<<grid, block, 0, stream>>>(A, B, C, M, N, K);
    CUDA_CHECK_LAUNCH();
}

// The kernel's registers and shared memory, for the ladder's last columns.
cudaFuncAttributes matmul::step03_shared_tiles_attributes() { return attributes_of(shared_tiles); }
