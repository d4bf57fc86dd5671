// Matmul, step 04: 1D register blocking, 8 outputs per thread.
//
// Step 03 reads two floats from shared memory for every multiply-add: the
// shared-memory pipe, not the arithmetic, sets its speed. Here each thread
// computes TM = 8 outputs of one column of C instead of one. In the inner
// loop it reads one value of B's tile, keeps it in a register, and uses it
// for 8 multiply-adds against 8 values of A's tile: 9 shared-memory reads
// for 8 multiply-adds instead of 16. The 8 partial sums live in registers
// (an array indexed only by unrolled loop counters, so the compiler can
// keep it there).
//
// The block tile grows to BM x BN = 64 x 64 outputs with 512 threads, and the
// phases get thinner: BK = 8 terms, so that each thread still loads exactly
// one element of each tile. A bigger block tile also cuts global traffic: a
// phase loads (64 + 64) * 8 floats for 64 * 64 * 8 multiply-adds, 4 times
// fewer bytes per FLOP than the 16 x 16 tiles of step 03.
#include "tracks/matmul/device.cuh"
#include "tracks/matmul/kernels.h"

#include "course/check.h"

namespace {

// From tracks/matmul/device.cuh.
using matmul::load_or_zero;

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
    blocked_1d(const float* __restrict__ A, const float* __restrict__ B, float* __restrict__ C, int M, int N, int K) {
    __shared__ float As[BM][BK];
    __shared__ float Bs[BK][BN];
    const int tid = threadIdx.x;
    const int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
    // This thread's outputs: rows row0 + thread_row * TM + i (i < TM) of
    // column col0 + thread_col. A warp is 32 consecutive columns of one
    // thread_row, so its reads of Bs are consecutive and its reads of As are
    // one address (a broadcast).
    const int thread_col = tid % BN, thread_row = tid / BN;
    // The one element of each tile this thread loads.
    const int a_row = tid / BK, a_col = tid % BK;
    const int b_row = tid / BN, b_col = tid % BN;

    float acc[TM] = {};
    for (int k0 = 0; k0 < K; k0 += BK) {
        As[a_row][a_col] = load_or_zero(A, row0 + a_row, k0 + a_col, M, K);
        Bs[b_row][b_col] = load_or_zero(B, k0 + b_row, col0 + b_col, K, N);
        __syncthreads();
#pragma unroll
        for (int k = 0; k < BK; ++k) {
            const float b = Bs[k][thread_col];  // one read, used TM times
#pragma unroll
            for (int i = 0; i < TM; ++i) acc[i] += As[thread_row * TM + i][k] * b;
        }
        __syncthreads();
    }
    const int col = col0 + thread_col;
#pragma unroll
    for (int i = 0; i < TM; ++i) {
        const int row = row0 + thread_row * TM + i;
        if (row < M && col < N) C[row * N + col] = acc[i];
    }
}

}  // namespace

void matmul::step04_1d_blocking(const float* A, const float* B, float* C, int M, int N, int K, cudaStream_t stream) {
    const dim3 grid = grid_for(N, BN, M, BM);
    blocked_1d<<<grid, kThreads, 0, stream>>>(A, B, C, M, N, K);
    CUDA_CHECK_LAUNCH();
}

// The kernel's registers and shared memory, for the ladder's last columns.
cudaFuncAttributes matmul::step04_1d_blocking_attributes() { return attributes_of(blocked_1d); }
