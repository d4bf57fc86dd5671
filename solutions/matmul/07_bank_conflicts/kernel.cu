// Matmul, step 07: no shared-memory bank conflicts.
//
// Shared memory is 32 banks, 4 bytes wide; in one pass ("wavefront") it
// serves one word from each bank. Threads of a warp that read different
// words of the same bank wait for one another: a bank conflict, and the
// access takes as many wavefronts as the busiest bank has words to give.
// (Threads reading the same word share it: a broadcast, no conflict.)
// Step 06 has two conflicts; this step removes both.
//
//  1. Reading B's tile. In step 06 thread_col t reads Bs[k][8t .. 8t+7] as
//     two float4s. The 16 threads of a row then read 16-byte pieces 32
//     bytes apart, spread over 512 bytes: every other piece of each 128-byte
//     stretch, so the pieces pile up on half of the banks and the read takes
//     twice the wavefronts it needs. Fix: each thread's 8 columns become two
//     groups of 4, half a tile apart: columns 4t .. 4t+3 and 64 + 4t .. 64 +
//     4t+3. Neighbouring threads now read neighbouring 16-byte pieces, 256
//     contiguous bytes per read, every bank used once per wavefront. A's tile
//     gets the same treatment (rows 4t .. 4t+3 and 64 + 4t .. 64 + 4t+3), and
//     the stores to C become 16 threads writing 256 contiguous bytes.
//  2. Storing A's tile transposed. Two threads (the two float4s of one row of
//     A) write As[k][m] and As[k + 4][m]: with rows of 128 floats (a
//     multiple of 32 banks), both words sit in bank m % 32: a 2-way conflict
//     on every store. Fix: pad each row of As by 4 floats (kPad). Row k + 4
//     now starts 16 banks further round, so the two threads hit different
//     banks. 4, not 1, so that rows stay 16-byte aligned for the float4
//     reads.
//
// The arithmetic is unchanged: every thread still computes 64 outputs from
// 8 values of A and 8 of B per k; only which 64, and where As's rows start.
#include "tracks/matmul/device.cuh"
#include "tracks/matmul/kernels.h"

#include "course/check.h"

namespace {

// From tracks/matmul/device.cuh.
using matmul::load4;
using matmul::spread;
using matmul::store4;

constexpr int BM = 128;                          // rows of C per block
constexpr int BN = 128;                          // columns of C per block
constexpr int BK = 8;                            // terms per phase
constexpr int TM = 8;                            // rows of C per thread: two groups of 4, BM / 2 apart
constexpr int TN = 8;                            // columns of C per thread: two groups of 4, BN / 2 apart
constexpr int kPad = 4;                          // floats of padding after each row of As
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
                                      conflict_free(const float* __restrict__ A, const float* __restrict__ B,
                                                    float* __restrict__ C, int M, int N, int K) {
    __shared__ __align__(16) float As[BK][BM + kPad];  // transposed and padded
    __shared__ __align__(16) float Bs[BK][BN];
    const int tid = threadIdx.x;
    const int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
    const int thread_row = tid / (BN / TN), thread_col = tid % (BN / TN);

    float acc[TM][TN] = {};
    float a_frag[TM], b_frag[TN];
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

void matmul::step07_bank_conflicts(const float* A, const float* B, float* C, int M, int N, int K, cudaStream_t stream) {
    const dim3 grid = grid_for(N, BN, M, BM);
    if (fits_fast_path(A, B, C, M, N, K, BM, BN, BK))
        conflict_free<false><<<grid, kThreads, 0, stream>>>(A, B, C, M, N, K);
    else
        conflict_free<true><<<grid, kThreads, 0, stream>>>(A, B, C, M, N, K);
    CUDA_CHECK_LAUNCH();
}

// The fast path's kernel: the one that runs at the ladder's default size.
cudaFuncAttributes matmul::step07_bank_conflicts_attributes() { return attributes_of(conflict_free<false>); }
