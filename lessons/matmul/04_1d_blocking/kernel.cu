// Matmul, step 04: 1D register blocking, 8 outputs per thread. (your starting point)
//
// This is the solution of step 03, renamed: 16 x 16 tiles in shared memory,
// one output per thread, two shared-memory reads per multiply-add. Make each
// thread compute TM = 8 outputs of one column of C, reusing each value it
// reads from B's tile 8 times, where the TODO(step 04) markers are. README.md
// in this folder explains the step; `meson compile -C build matmul-04 &&
// build/lessons/matmul-04` runs it.
#include "tracks/matmul/device.cuh"
#include "tracks/matmul/kernels.h"

#include "course/check.h"

namespace {

// From tracks/matmul/device.cuh.
using matmul::load_or_zero;

// TODO(step 04): the block tile becomes BM x BN = 64 x 64 outputs, in phases
// of BK = 8 terms, with TM = 8 outputs per thread: kThreads = BM * BN / TM =
// 512 threads per block, one-dimensional (threadIdx.x only). Check the shapes
// at compile time, for instance
//     static_assert(kThreads == BM * BK, "each thread loads exactly one element of A's tile");
// and the same for B's tile (BK x BN).
constexpr int kTile = 16;  // TILE_WIDTH in Seo's slides: 256 threads per block

__global__ void __launch_bounds__(kTile * kTile)
    blocked_1d(const float* __restrict__ A, const float* __restrict__ B, float* __restrict__ C, int M, int N, int K) {
    // TODO(step 04): As[BM][BK] and Bs[BK][BN].
    __shared__ float As[kTile][kTile];
    __shared__ float Bs[kTile][kTile];
    // TODO(step 04): from tid = threadIdx.x:
    //   - this thread's outputs: column thread_col = tid % BN, rows
    //     thread_row * TM + i (i < TM) with thread_row = tid / BN, all within
    //     the block tile that starts at row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
    //   - the one element of each tile it loads: As[tid / BK][tid % BK] and
    //     Bs[tid / BN][tid % BN].
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int row = blockIdx.y * kTile + ty;
    const int col = blockIdx.x * kTile + tx;

    // TODO(step 04): TM partial sums, float acc[TM] = {}.
    float sum = 0.0f;
    for (int k0 = 0; k0 < K; k0 += kTile) {
        // TODO(step 04): load this thread's element of each tile.
        As[ty][tx] = load_or_zero(A, row, k0 + tx, M, K);
        Bs[ty][tx] = load_or_zero(B, k0 + ty, col, K, N);
        __syncthreads();  // 1: the tiles are complete
        // TODO(step 04): for each k < BK: read b = Bs[k][thread_col] once, then
        // acc[i] += As[thread_row * TM + i][k] * b for i < TM. Put
        // #pragma unroll on both loops: acc stays in registers only if every
        // index into it is known at compile time.
        for (int k = 0; k < kTile; ++k) sum += As[ty][k] * Bs[k][tx];
        __syncthreads();  // 2: everyone is done with them
    }
    // TODO(step 04): store the TM outputs, each only if it lies inside C.
    if (row < M && col < N) C[row * N + col] = sum;
}

}  // namespace

void matmul::step04_1d_blocking(const float* A, const float* B, float* C, int M, int N, int K, cudaStream_t stream) {
    // TODO(step 04): a grid of BM x BN tiles, and kThreads threads per block.
    const dim3 block(kTile, kTile);
    const dim3 grid = grid_for(N, kTile, M, kTile);
    blocked_1d<<<grid, block, 0, stream>>>(A, B, C, M, N, K);
    CUDA_CHECK_LAUNCH();
}

// The kernel's registers and shared memory, for the ladder's last columns.
cudaFuncAttributes matmul::step04_1d_blocking_attributes() { return attributes_of(blocked_1d); }
