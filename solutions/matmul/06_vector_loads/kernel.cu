// Matmul, step 06: 16-byte loads, with A's tile transposed in shared memory.
//
// Step 05's tiles are the right size; this step moves them with fewer,
// wider instructions.
//
//  1. Global loads of float4: each thread loads one float4 (16 bytes) of A's
//     tile and one of B's per phase, instead of four floats of each: a
//     quarter of the load instructions for the same bytes, as in basics
//     step 02. The stores to C become float4 too.
//  2. A's tile stored transposed, As[k][m]. The inner loop wants, for one k,
//     the 8 values of A in this thread's 8 rows. In step 05 (As[m][k]) they
//     are 8 floats BK apart: 8 separate shared-memory reads. Transposed, they
//     are 8 consecutive floats: two 16-byte reads. B's tile is already laid
//     out that way (Bs[k][n]), and is now read with float4 as well. The
//     transposition happens for free while storing: the float4 loaded from a
//     row of A is written as 4 floats down a column of As.
//
// A float4 access must be 16-byte aligned, and a float4 of a row must not run
// past its end. That holds when A, B and C start 16-byte aligned and every
// dimension is a multiple of the tile (then K and N are multiples of 4):
// the launcher takes this fast path then. Any other shape runs the same
// kernel with kChecked = true, which loads and stores single floats with
// bounds checks (zeros outside the matrices), as steps 03 to 05 did. The two
// paths differ only in load4 and store4 (tracks/matmul/device.cuh).
#include "tracks/matmul/device.cuh"
#include "tracks/matmul/kernels.h"

#include "course/check.h"

namespace {

// From tracks/matmul/device.cuh.
using matmul::load4;
using matmul::store4;

constexpr int BM = 128;                          // rows of C per block
constexpr int BN = 128;                          // columns of C per block
constexpr int BK = 8;                            // terms per phase
constexpr int TM = 8;                            // rows of C per thread
constexpr int TN = 8;                            // columns of C per thread
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
                                      vector_loads(const float* __restrict__ A, const float* __restrict__ B,
                                                   float* __restrict__ C, int M, int N, int K) {
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
#pragma unroll
    for (int i = 0; i < TM; ++i)
#pragma unroll
        for (int j = 0; j < TN; j += 4)
            store4<kChecked>(C, row0 + thread_row * TM + i, col0 + thread_col * TN + j, M, N, &acc[i][j]);
}

}  // namespace

void matmul::step06_vector_loads(const float* A, const float* B, float* C, int M, int N, int K, cudaStream_t stream) {
    const dim3 grid = grid_for(N, BN, M, BM);
    if (fits_fast_path(A, B, C, M, N, K, BM, BN, BK))
        vector_loads<false><<<grid, kThreads, 0, stream>>>(A, B, C, M, N, K);
    else
        vector_loads<true><<<grid, kThreads, 0, stream>>>(A, B, C, M, N, K);
    CUDA_CHECK_LAUNCH();
}

// The fast path's kernel: the one that runs at the ladder's default size.
cudaFuncAttributes matmul::step06_vector_loads_attributes() { return attributes_of(vector_loads<false>); }
