// Matmul, step 06: 16-byte loads, A's tile transposed.     (your starting point)
//
// This is the solution of step 05, renamed: 128 x 128 tiles, 8 x 8 outputs
// per thread, every load and store 4 bytes wide. Move the same data with
// 16-byte (float4) instructions, where the TODO(step 06) markers are:
// global loads and stores of C, and the reads from shared memory, for which
// A's tile must be stored transposed. README.md in this folder explains the
// step; `meson compile -C build matmul-06 && build/lessons/matmul-06`
// runs it.
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
// TODO(step 06): count float4s instead: kAVectors = BM * BK / 4 / kThreads
// (1) per thread for A's tile, kBVectors = BK * BN / 4 / kThreads (1) for
// B's, with static_asserts that BK, BN, TM and TN are multiples of 4.
constexpr int kALoads = BM * BK / kThreads;  // elements of A's tile per thread: 4
constexpr int kBLoads = BK * BN / kThreads;  // elements of B's tile per thread: 4

static_assert(BM % TM == 0 && BN % TN == 0, "the thread tiles must cover the block tile exactly");
static_assert(BM * BK % kThreads == 0, "the threads must share A's tile evenly");
static_assert(BK * BN % kThreads == 0, "the threads must share B's tile evenly");

// TODO(step 06): two helpers from tracks/matmul/device.cuh, templated on
// bool kChecked (read them there; bring them in with using matmul::load4;
// and using matmul::store4;):
//   - load4<kChecked>(X, row, col, rows, cols): the float4 X[row][col ..
//     col + 3]. Fast path (kChecked = false): one 16-byte load,
//     *reinterpret_cast<const float4*>(&X[row * cols + col]). Checked path:
//     four load_or_zero calls.
//   - store4<kChecked>(C, row, col, M, N, values): four outputs of one row of
//     C, one float4 store on the fast path, single floats inside C otherwise.

// TODO(step 06): template <bool kChecked>, so that the launcher can pick
// either path.
__global__ void __launch_bounds__(kThreads, kMinBlocks)
                                      vector_loads(const float* __restrict__ A, const float* __restrict__ B,
                                                   float* __restrict__ C, int M, int N, int K) {
    // TODO(step 06): As transposed, As[BK][BM] (As[k][m] holds A[row0 + m][k0 + k]),
    // and both arrays __align__(16) for float4 accesses.
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
        // TODO(step 06): float4 number v = tid (+ l * kThreads) of each tile,
        // row-major. A's tile is BM x BK: row m = v / (BK / 4), column
        // k = v % (BK / 4) * 4; store the four floats down a column of As,
        // As[k + 0][m] .. As[k + 3][m]. B's tile is BK x BN: row v / (BN / 4),
        // column v % (BN / 4) * 4; store the float4 as it is.
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
        // TODO(step 06): unroll the k loop fully again (#pragma unroll): the
        // float4 reads need fewer registers, and it fits in 128 now.
#pragma unroll 2
        for (int k = 0; k < BK; ++k) {
            // TODO(step 06): a_frag from As[k][thread_row * TM .. + TM] and
            // b_frag from Bs[k][thread_col * TN .. + TN], each as TM / 4 (TN / 4)
            // float4 reads: *reinterpret_cast<const float4*>(&As[k][...]).
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
    // TODO(step 06): store each row of the patch, 4 outputs at a time, with
    // store4<kChecked>(C, row, col, M, N, &acc[i][j]).
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

void matmul::step06_vector_loads(const float* A, const float* B, float* C, int M, int N, int K, cudaStream_t stream) {
    const dim3 grid = grid_for(N, BN, M, BM);
    // TODO(step 06): the fast path (vector_loads<false>) only when M, N and K
    // are multiples of BM, BN and BK and A, B and C are 16-byte aligned:
    // fits_fast_path(A, B, C, M, N, K, BM, BN, BK) in tracks/matmul/device.cuh
    // says so. vector_loads<true> otherwise.
    vector_loads<<<grid, kThreads, 0, stream>>>(A, B, C, M, N, K);
    CUDA_CHECK_LAUNCH();
}

// The kernel's registers and shared memory, for the ladder's last columns.
// TODO(step 06): report the fast path's kernel, vector_loads<false>.
cudaFuncAttributes matmul::step06_vector_loads_attributes() { return attributes_of(vector_loads); }
