// Matmul, step 05: 2D register blocking, 8 x 8 outputs per thread. (your starting point)
//
// This is the solution of step 04, renamed: 8 outputs down one column per
// thread. Make each thread compute an 8 x 8 patch of C as an outer product
// of 8 values of A and 8 of B per term, where the TODO(step 05) markers are.
// README.md in this folder explains the step; `meson compile -C build
// matmul-05 && build/lessons/matmul-05` runs it.
#include "tracks/matmul/device.cuh"
#include "tracks/matmul/kernels.h"

#include "course/check.h"

namespace {

// From tracks/matmul/device.cuh.
using matmul::load_or_zero;

// TODO(step 05): BM = BN = 128, BK = 8, TM = TN = 8: kThreads = (BM / TM) *
// (BN / TN) = 256 threads, each loading kALoads = BM * BK / kThreads = 4
// elements of A's tile and kBLoads = BK * BN / kThreads = 4 of B's per
// phase. Also kMinBlocks = 2, for __launch_bounds__(kThreads, kMinBlocks):
// two blocks per multiprocessor, so at most 65536 / 512 = 128 registers per
// thread (README.md says why).
constexpr int BM = 64;                  // rows of C per block
constexpr int BN = 64;                  // columns of C per block
constexpr int BK = 8;                   // terms per phase
constexpr int TM = 8;                   // outputs per thread, down one column
constexpr int kThreads = BM * BN / TM;  // 512

static_assert(BM % TM == 0, "a thread's TM outputs must fit in the block tile's column");
static_assert(kThreads == BM * BK, "each thread loads exactly one element of A's tile");
static_assert(kThreads == BK * BN, "each thread loads exactly one element of B's tile");
static_assert(kThreads % 32 == 0 && BN % 32 == 0, "a warp must cover 32 columns of one row of threads");

__global__ void __launch_bounds__(kThreads)
    blocked_2d(const float* __restrict__ A, const float* __restrict__ B, float* __restrict__ C, int M, int N, int K) {
    __shared__ float As[BM][BK];
    __shared__ float Bs[BK][BN];
    const int tid = threadIdx.x;
    const int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
    // TODO(step 05): this thread's patch: rows thread_row * TM + i and
    // columns thread_col * TN + j of the block tile, with thread_row =
    // tid / (BN / TN) and thread_col = tid % (BN / TN).
    const int thread_col = tid % BN, thread_row = tid / BN;
    // TODO(step 05): each thread loads kALoads elements of A's tile: elements
    // e = tid, tid + kThreads, ... in row-major order (row e / BK, column
    // e % BK), and kBLoads of B's likewise (row e / BN, column e % BN).
    const int a_row = tid / BK, a_col = tid % BK;
    const int b_row = tid / BN, b_col = tid % BN;

    // TODO(step 05): float acc[TM][TN] = {}, and two register fragments,
    // float a_frag[TM], b_frag[TN].
    float acc[TM] = {};
    for (int k0 = 0; k0 < K; k0 += BK) {
        As[a_row][a_col] = load_or_zero(A, row0 + a_row, k0 + a_col, M, K);
        Bs[b_row][b_col] = load_or_zero(B, k0 + b_row, col0 + b_col, K, N);
        __syncthreads();
        // TODO(step 05): for each k: a_frag[i] = As[thread_row * TM + i][k],
        // b_frag[j] = Bs[k][thread_col * TN + j], then all TM x TN
        // acc[i][j] += a_frag[i] * b_frag[j]. Unroll the i and j loops fully,
        // the k loop by 2 (#pragma unroll 2): README.md says why.
#pragma unroll
        for (int k = 0; k < BK; ++k) {
            const float b = Bs[k][thread_col];  // one read, used TM times
#pragma unroll
            for (int i = 0; i < TM; ++i) acc[i] += As[thread_row * TM + i][k] * b;
        }
        __syncthreads();
    }
    // TODO(step 05): store the TM x TN outputs, each only if it lies inside C.
    const int col = col0 + thread_col;
#pragma unroll
    for (int i = 0; i < TM; ++i) {
        const int row = row0 + thread_row * TM + i;
        if (row < M && col < N) C[row * N + col] = acc[i];
    }
}

}  // namespace

void matmul::step05_2d_blocking(const float* A, const float* B, float* C, int M, int N, int K, cudaStream_t stream) {
    const dim3 grid = grid_for(N, BN, M, BM);
    blocked_2d<<<grid, kThreads, 0, stream>>>(A, B, C, M, N, K);
    CUDA_CHECK_LAUNCH();
}

// The kernel's registers and shared memory, for the ladder's last columns.
cudaFuncAttributes matmul::step05_2d_blocking_attributes() { return attributes_of(blocked_2d); }
