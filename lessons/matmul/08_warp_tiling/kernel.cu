// Matmul, step 08: warp tiling, double-buffered.          (your starting point)
//
// This is the solution of step 07, renamed: 128 x 128 tiles, 8 x 8 outputs
// per thread in two groups of 4 each way, float4 loads, no bank conflicts.
// Two changes, where the TODO(step 08) markers are:
//   1. warp tiling: give each warp a compact 32 x 64 rectangle of the block
//      tile (the block is 4 x 2 of them), its 32 lanes a 4 x 8 grid inside it;
//   2. double buffering: two stages of tiles in shared memory; load the next
//      tile into registers while computing on this one, then store it into
//      the other stage, with one barrier per phase.
// README.md in this folder explains both; `meson compile -C build matmul-08
// && build/lessons/matmul-08` runs your kernel beside the others and
// cuBLAS.
#include "tracks/matmul/device.cuh"
#include "tracks/matmul/kernels.h"

#include "course/check.h"

namespace {

// From tracks/matmul/device.cuh.
using matmul::load4;
using matmul::spread;
using matmul::store4;

constexpr int BM = 128;  // rows of C per block
constexpr int BN = 128;  // columns of C per block
constexpr int BK = 8;    // terms per phase
// TODO(step 08): BK = 16, two float4s of each tile per thread: deeper phases
// give the next tile's loads more arithmetic to hide behind (README.md).
constexpr int TM = 8;    // rows of C per thread: two groups of 4, BM / 2 apart
constexpr int TN = 8;    // columns of C per thread: two groups of 4, BN / 2 apart
constexpr int kPad = 4;  // floats of padding after each row of As
// TODO(step 08): the warp tile, WM x WN = 32 x 64: (BM / WM) x (BN / WN) =
// 4 x 2 warps, kThreads = 32 * 8 = 256 still. A warp's lanes form a
// WM / 8 by WN / 8 = 4 x 8 grid (static_assert that it is 32 lanes), each
// lane 8 x 8 outputs. (The solution wraps all these numbers in a template
// struct, Tiles, so that other sizes can be tried; constants are fine here.)
// TODO(step 08): kStages = 2, the double buffer.
constexpr int kThreads = (BM / TM) * (BN / TN);  // 256
// Two blocks per multiprocessor: __launch_bounds__ then caps the registers at
// 65536 / (2 * 256) = 128 per thread.
constexpr int kMinBlocks = 2;
constexpr int kAVectors = BM * BK / 4 / kThreads;  // float4s of A's tile per thread: 1
constexpr int kBVectors = BK * BN / 4 / kThreads;  // float4s of B's tile per thread: 1

static_assert(TM == 8 && TN == 8, "each thread's outputs are two groups of 4 in each direction");
static_assert(BM % TM == 0 && BN % TN == 0, "the thread tiles must cover the block tile exactly");
static_assert(BK % 4 == 0 && BN % 4 == 0, "rows are moved as whole float4s");
static_assert(kPad % 4 == 0, "padded rows of As must stay 16-byte aligned for float4 reads");
static_assert(BM * BK % (4 * kThreads) == 0, "the threads must share A's tile evenly, a float4 each");
static_assert(BK * BN % (4 * kThreads) == 0, "the threads must share B's tile evenly, a float4 each");

template <bool kChecked>
__global__ void __launch_bounds__(kThreads, kMinBlocks)
                                      warp_tiled(const float* __restrict__ A, const float* __restrict__ B,
                                                 float* __restrict__ C, int M, int N, int K) {
    // TODO(step 08): a stage index in front: As[kStages][BK][BM + kPad],
    // Bs[kStages][BK][BN].
    __shared__ __align__(16) float As[BK][BM + kPad];  // transposed and padded
    __shared__ __align__(16) float Bs[BK][BN];
    const int tid = threadIdx.x;
    const int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
    // TODO(step 08): warp = tid / 32 and lane = tid % 32; the warp tile
    // starts at row warp / (BN / WN) * WM and column warp % (BN / WN) * WN of
    // the block tile; the lane is lane_row = lane / (WN / 8), lane_col =
    // lane % (WN / 8) of the warp's 4 x 8 grid. Its rows and columns are then
    // the warp tile's corner plus spread(lane_row, i, WM) and
    // spread(lane_col, j, WN): the reads of As and Bs and the stores change
    // accordingly.
    const int thread_row = tid / (BN / TN), thread_col = tid % (BN / TN);

    float acc[TM][TN] = {};
    float a_frag[TM], b_frag[TN];
    // TODO(step 08): split the loop body into three parts (lambdas work well:
    // const auto fetch = [&](int k0) { ... };):
    //   fetch(k0)      load the tiles at k0 from global memory into registers
    //                  (float4 a_next[kAVectors], b_next[kBVectors]);
    //   stash(stage)   store those registers into As[stage], Bs[stage];
    //   compute(stage) the k loop below, on As[stage] and Bs[stage].
    // Then: fetch(0); stash(0); __syncthreads(); and for each phase:
    //   if there is a next tile, fetch(k0 + BK)   (in flight while we compute)
    //   compute(stage)
    //   if there is a next tile, stash(stage ^ 1)  (the other stage)
    //   __syncthreads(); stage ^= 1
    // Why one barrier is enough: README.md.
    for (int k0 = 0; k0 < K; k0 += BK) {
#pragma unroll
        for (int l = 0; l < kAVectors; ++l) {
            const int v = tid + l * kThreads;
            const int m = v / (BK / 4), k = v % (BK / 4) * 4;
            const float4 a = load4<kChecked>(A, row0 + m, k0 + k, M, K);
            As[k + 0][m] = a.x;
            As[k + 1][m] = a.y;
            As[k + 2][m] = a.z;
            As[k + 3][m] = a.w;
        }
#pragma unroll
        for (int l = 0; l < kBVectors; ++l) {
            const int v = tid + l * kThreads;
            const int k = v / (BN / 4), n = v % (BN / 4) * 4;
            *reinterpret_cast<float4*>(&Bs[k][n]) = load4<kChecked>(B, k0 + k, col0 + n, K, N);
        }
        __syncthreads();
#pragma unroll
        for (int k = 0; k < BK; ++k) {
#pragma unroll
            for (int i = 0; i < TM; i += 4) {
                const float4 a = *reinterpret_cast<const float4*>(&As[k][spread(thread_row, i, BM)]);
                a_frag[i] = a.x, a_frag[i + 1] = a.y, a_frag[i + 2] = a.z, a_frag[i + 3] = a.w;
            }
#pragma unroll
            for (int j = 0; j < TN; j += 4) {
                const float4 b = *reinterpret_cast<const float4*>(&Bs[k][spread(thread_col, j, BN)]);
                b_frag[j] = b.x, b_frag[j + 1] = b.y, b_frag[j + 2] = b.z, b_frag[j + 3] = b.w;
            }
#pragma unroll
            for (int i = 0; i < TM; ++i)
#pragma unroll
                for (int j = 0; j < TN; ++j) acc[i][j] += a_frag[i] * b_frag[j];
        }
        __syncthreads();
    }
#pragma unroll
    for (int i = 0; i < TM; ++i)
#pragma unroll
        for (int j = 0; j < TN; j += 4)
            store4<kChecked>(C, row0 + spread(thread_row, i, BM), col0 + spread(thread_col, j, BN), M, N, &acc[i][j]);
}

}  // namespace

void matmul::step08_warp_tiling(const float* A, const float* B, float* C, int M, int N, int K, cudaStream_t stream) {
    const dim3 grid = grid_for(N, BN, M, BM);
    if (fits_fast_path(A, B, C, M, N, K, BM, BN, BK))
        warp_tiled<false><<<grid, kThreads, 0, stream>>>(A, B, C, M, N, K);
    else
        warp_tiled<true><<<grid, kThreads, 0, stream>>>(A, B, C, M, N, K);
    CUDA_CHECK_LAUNCH();
}

// The fast path's kernel: the one that runs at the ladder's default size.
cudaFuncAttributes matmul::step08_warp_tiling_attributes() { return attributes_of(warp_tiled<false>); }
