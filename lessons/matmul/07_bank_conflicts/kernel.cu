// Matmul, step 07: no shared-memory bank conflicts.       (your starting point)
//
// This is the solution of step 06, renamed: float4 loads, A's tile
// transposed. Two of its shared-memory accesses have bank conflicts. Remove
// both, where the TODO(step 07) markers are: spread each thread's 8 rows and
// 8 columns as two groups of 4, half a tile apart, and pad the rows of As.
// README.md in this folder explains the step; `meson compile -C build
// matmul-07 && build/lessons/matmul-07` runs it.
#include "tracks/matmul/device.cuh"
#include "tracks/matmul/kernels.h"

#include "course/check.h"

namespace {

// From tracks/matmul/device.cuh.
using matmul::load4;
using matmul::store4;
// TODO(step 07): spread(t, i, extent) from there too: number i = 0..7 of the
// rows (or columns) thread t owns, 4t .. 4t+3 and then extent / 2 + 4t ..
// extent / 2 + 4t+3. Add using matmul::spread;

constexpr int BM = 128;  // rows of C per block
constexpr int BN = 128;  // columns of C per block
constexpr int BK = 8;    // terms per phase
constexpr int TM = 8;    // rows of C per thread
constexpr int TN = 8;    // columns of C per thread
// TODO(step 07): kPad = 4 floats of padding after each row of As (a
// multiple of 4, so that padded rows stay 16-byte aligned: static_assert it).
constexpr int kThreads = (BM / TM) * (BN / TN);  // 256
// Two blocks per multiprocessor: __launch_bounds__ then caps the registers at
// 65536 / (2 * 256) = 128 per thread.
constexpr int kMinBlocks = 2;
constexpr int kAVectors = BM * BK / 4 / kThreads;  // float4s of A's tile per thread: 1
constexpr int kBVectors = BK * BN / 4 / kThreads;  // float4s of B's tile per thread: 1

static_assert(BM % TM == 0 && BN % TN == 0, "the thread tiles must cover the block tile exactly");
static_assert(BK % 4 == 0 && BN % 4 == 0 && TM % 4 == 0 && TN % 4 == 0, "rows are moved as whole float4s");
static_assert(BM * BK % (4 * kThreads) == 0, "the threads must share A's tile evenly, a float4 each");
static_assert(BK * BN % (4 * kThreads) == 0, "the threads must share B's tile evenly, a float4 each");

template <bool kChecked>
__global__ void __launch_bounds__(kThreads, kMinBlocks)
                                      conflict_free(const float* __restrict__ A, const float* __restrict__ B,
                                                    float* __restrict__ C, int M, int N, int K) {
    // TODO(step 07): pad As's rows: As[BK][BM + kPad].
    __shared__ __align__(16) float As[BK][BM];  // transposed: As[k][m] = A[row0 + m][k0 + k]
    __shared__ __align__(16) float Bs[BK][BN];
    const int tid = threadIdx.x;
    const int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
    const int thread_row = tid / (BN / TN), thread_col = tid % (BN / TN);

    float acc[TM][TN] = {};
    float a_frag[TM], b_frag[TN];
    for (int k0 = 0; k0 < K; k0 += BK) {
#pragma unroll
        for (int l = 0; l < kAVectors; ++l) {
            const int v = tid + l * kThreads;  // float4 number v of the tile, row-major
            const int m = v / (BK / 4), k = v % (BK / 4) * 4;
            const float4 a = load4<kChecked>(A, row0 + m, k0 + k, M, K);
            As[k + 0][m] = a.x;  // a row of A goes down a column of As
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
            // Consecutive floats now, for A as for B: 16-byte shared-memory reads.
            // TODO(step 07): read the two groups of 4 at the spread positions:
            // As[k][spread(thread_row, i, BM)] and Bs[k][spread(thread_col, j, BN)].
#pragma unroll
            for (int i = 0; i < TM; i += 4) {
                const float4 a = *reinterpret_cast<const float4*>(&As[k][thread_row * TM + i]);
                a_frag[i] = a.x, a_frag[i + 1] = a.y, a_frag[i + 2] = a.z, a_frag[i + 3] = a.w;
            }
#pragma unroll
            for (int j = 0; j < TN; j += 4) {
                const float4 b = *reinterpret_cast<const float4*>(&Bs[k][thread_col * TN + j]);
                b_frag[j] = b.x, b_frag[j + 1] = b.y, b_frag[j + 2] = b.z, b_frag[j + 3] = b.w;
            }
#pragma unroll
            for (int i = 0; i < TM; ++i)
#pragma unroll
                for (int j = 0; j < TN; ++j) acc[i][j] += a_frag[i] * b_frag[j];
        }
        __syncthreads();
    }
    // TODO(step 07): store to the spread rows and columns.
#pragma unroll
    for (int i = 0; i < TM; ++i)
#pragma unroll
        for (int j = 0; j < TN; j += 4)
            store4<kChecked>(C, row0 + thread_row * TM + i, col0 + thread_col * TN + j, M, N, &acc[i][j]);
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
