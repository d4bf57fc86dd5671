// Matmul, step 05: 2D register blocking, 8 x 8 outputs per thread.
//
// Step 04 reuses a value of B for 8 multiply-adds but reads a fresh value of
// A for each one. Here each thread computes an 8 x 8 patch of C, an outer
// product per term: per k it reads 8 values of A's tile and 8 of B's into
// registers, then does all 64 multiply-adds between them. 16 shared-memory
// reads for 64 multiply-adds (step 04: 9 for 8, step 03: 2 for 1).
//
// The block tile grows to 128 x 128 outputs with 256 threads (16 x 16
// threads, 8 x 8 outputs each). A phase loads (128 + 128) * 8 floats for
// 128 * 128 * 8 multiply-adds: half the bytes per FLOP of step 04. Each
// thread now loads 4 elements of each tile.
//
// The cost: 64 accumulators, 16 fragment values and the addresses take
// about 128 registers per thread (the "regs" column of the ladder), so only
// 512 threads fit on a multiprocessor (65536 registers) instead of 2048. That
// is the trade: each thread carries more independent work instead of the GPU
// running more threads.
#include "tracks/matmul/device.cuh"
#include "tracks/matmul/kernels.h"

#include "course/check.h"

namespace {

// From tracks/matmul/device.cuh.
using matmul::load_or_zero;

constexpr int BM = 128;                          // rows of C per block
constexpr int BN = 128;                          // columns of C per block
constexpr int BK = 8;                            // terms per phase
constexpr int TM = 8;                            // rows of C per thread
constexpr int TN = 8;                            // columns of C per thread
constexpr int kThreads = (BM / TM) * (BN / TN);  // 256
// Two blocks per multiprocessor: __launch_bounds__ then caps the registers at
// 65536 / (2 * 256) = 128 per thread, so that while one block waits at a
// barrier for its tiles, the other computes.
constexpr int kMinBlocks = 2;
constexpr int kALoads = BM * BK / kThreads;  // elements of A's tile per thread: 4
constexpr int kBLoads = BK * BN / kThreads;  // elements of B's tile per thread: 4

static_assert(BM % TM == 0 && BN % TN == 0, "the thread tiles must cover the block tile exactly");
static_assert(BM * BK % kThreads == 0, "the threads must share A's tile evenly");
static_assert(BK * BN % kThreads == 0, "the threads must share B's tile evenly");

__global__ void __launch_bounds__(kThreads, kMinBlocks)
                                      blocked_2d(const float* __restrict__ A, const float* __restrict__ B,
                                                 float* __restrict__ C, int M, int N, int K) {
    __shared__ float As[BM][BK];
    __shared__ float Bs[BK][BN];
    const int tid = threadIdx.x;
    const int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
    // This thread's 8 x 8 patch: rows thread_row * TM + i, columns
    // thread_col * TN + j of the block tile.
    const int thread_row = tid / (BN / TN), thread_col = tid % (BN / TN);

    float acc[TM][TN] = {};
    float a_frag[TM], b_frag[TN];
    for (int k0 = 0; k0 < K; k0 += BK) {
        // Thread tid loads elements tid, tid + 256, ... of each tile, in
        // row-major order: consecutive threads, consecutive addresses.
#pragma unroll
        for (int l = 0; l < kALoads; ++l) {
            const int e = tid + l * kThreads;
            As[e / BK][e % BK] = load_or_zero(A, row0 + e / BK, k0 + e % BK, M, K);
        }
#pragma unroll
        for (int l = 0; l < kBLoads; ++l) {
            const int e = tid + l * kThreads;
            Bs[e / BN][e % BN] = load_or_zero(B, k0 + e / BN, col0 + e % BN, K, N);
        }
        __syncthreads();
        // Unrolled by 2, not by BK: fully unrolled, the compiler hoists the
        // loads of all 8 steps ahead of the arithmetic and needs 162 registers
        // on sm_90a (with the cap above it spills to local memory instead).
#pragma unroll 2
        for (int k = 0; k < BK; ++k) {
#pragma unroll
            for (int i = 0; i < TM; ++i) a_frag[i] = As[thread_row * TM + i][k];
#pragma unroll
            for (int j = 0; j < TN; ++j) b_frag[j] = Bs[k][thread_col * TN + j];
#pragma unroll
            for (int i = 0; i < TM; ++i)
#pragma unroll
                for (int j = 0; j < TN; ++j) acc[i][j] += a_frag[i] * b_frag[j];
        }
        __syncthreads();
    }
#pragma unroll
    for (int i = 0; i < TM; ++i) {
        const int row = row0 + thread_row * TM + i;
#pragma unroll
        for (int j = 0; j < TN; ++j) {
            const int col = col0 + thread_col * TN + j;
            if (row < M && col < N) C[row * N + col] = acc[i][j];
        }
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
