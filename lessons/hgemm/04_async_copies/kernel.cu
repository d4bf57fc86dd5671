// Hgemm, step 04: cp.async, three stages in flight.        (your starting point)
//
// This is the step 03 solution, renamed. Keep its tiles, warps, padding and
// instructions, and change how the tiles reach shared memory: every 16-byte
// piece copied with cp.async (copy_8_halves_async), three stages of tiles in
// dynamic shared memory, and a pipeline with one barrier per k-step, so that
// the copies of the next two tiles are in flight while the warps multiply
// one. The TODO(step 04) markers say where; README.md in this folder draws the
// pipeline. `meson compile -C build hgemm-04 && build/lessons/hgemm-04 --size
// 1024` runs your kernel against the CPU reference, beside the solutions of
// steps 01 to 03.
#include "tracks/hgemm/device.cuh"
#include "tracks/hgemm/kernels.h"

// TODO(step 04): include course/async_copy.cuh (copy_async_commit and
// copy_async_wait, in course::device), course/launch_helpers.h
// (allow_dynamic_shared) and <cstddef> (std::size_t); the copies become
// hgemm::copy_8_halves_async (tracks/hgemm/device.cuh).
#include "course/check.h"

#include <cstdint>

namespace {

using hgemm::copy_8_halves;

// The block tile, as in step 02: BM x BN outputs, BK terms per step; 8 warps,
// 2 x 4 over it, each a WM x WN warp tile of kMmaM x kMmaN mma tiles of 16 x 8.
// TODO(step 04): kStages = 3 tiles of A and of B in shared memory.
constexpr int BM = 128, BN = 128, BK = 32;
constexpr int kWarpsM = 2, kWarpsN = 4;
constexpr int WM = BM / kWarpsM, WN = BN / kWarpsN;  // 64 x 32
constexpr int kMmaM = WM / 16, kMmaN = WN / 8;       // 4 x 4 accumulators of 16 x 8 per warp
constexpr int kWarps = kWarpsM * kWarpsN;
constexpr int kThreads = kWarps * 32;
constexpr int kPad = 8;  // halves added to each row of the tiles: 16 bytes
constexpr int kPitchA = BK + kPad, kPitchB = BN + kPad;
static_assert(WM % 16 == 0 && WN % 16 == 0, "warp tiles must be whole 16 x 16 fragments of A and pairs of 16 x 8 of B");
static_assert(BK % 16 == 0, "a step of BK terms must be whole mma.syncs");
static_assert((BM * BK / 8) % kThreads == 0 && (BK * BN / 8) % kThreads == 0,
              "the threads must share each tile evenly, 8 halves (16 bytes) each");
static_assert(kPitchA % 8 == 0 && kPitchB % 8 == 0, "ldmatrix reads 16-byte rows: pitches of whole 8 halves");
// TODO(step 04): a stage is A's padded tile (kStageAHalves = BM * kPitchA)
// and B's (kStageBHalves = BK * kPitchB); kSharedBytes = kStages stages, in
// bytes. static_assert kStages >= 2, and kSharedBytes <= 64 KiB (a Turing
// block's most).

// The shared-memory address of p, as ldmatrix wants it (32 bits).
__device__ inline std::uint32_t shared_address(const void* p) {
    return static_cast<std::uint32_t>(__cvta_generic_to_shared(p));
}

// Four 8 x 8 tiles of halves: lanes 0-7 give the row addresses of the first,
// 8-15 of the second, 16-23 of the third, 24-31 of the fourth. Lane l gets
// row l / 4, halves 2 (l % 4) and 2 (l % 4) + 1 of tile i in r[i].
__device__ inline void ldmatrix_x4(std::uint32_t (&r)[4], const __half* row) {
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];\n"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
                 : "r"(shared_address(row)));
}

// The same, each 8 x 8 tile transposed on the way: lane l gets rows 2 (l % 4)
// and 2 (l % 4) + 1 of column l / 4.
__device__ inline void ldmatrix_x4_trans(std::uint32_t (&r)[4], const __half* row) {
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0, %1, %2, %3}, [%4];\n"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
                 : "r"(shared_address(row)));
}

// d += a * b for a 16 x 16 fragment of A (4 registers of 2 halves), a 16 x 8
// fragment of B (2 registers) and a 16 x 8 accumulator (4 floats).
__device__ inline void mma_16x8x16(float (&d)[4], const std::uint32_t (&a)[4], std::uint32_t b0, std::uint32_t b1) {
#if __CUDA_ARCH__ >= 800
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, "
                 "{%0, %1, %2, %3};\n"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
#else
    // Turing: the first 8 terms (a[0], a[1], b0), then the last 8 (a[2], a[3], b1).
    asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, {%4, %5}, {%6}, "
                 "{%0, %1, %2, %3};\n"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
                 : "r"(a[0]), "r"(a[1]), "r"(b0));
    asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, {%4, %5}, {%6}, "
                 "{%0, %1, %2, %3};\n"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
                 : "r"(a[2]), "r"(a[3]), "r"(b1));
#endif
}

// C[row][col] and C[row][col + 1], each only inside C: one 8-byte store when
// both are inside and `pairs` (N even, C 8-byte aligned).
__device__ inline void store_pair(float* __restrict__ C, int row, int col, int M, int N, float x, float y, bool pairs) {
    if (row >= M) return;
    if (pairs && col + 1 < N) {
        *reinterpret_cast<float2*>(&C[row * N + col]) = make_float2(x, y);
    } else {
        if (col < N) C[row * N + col] = x;
        if (col + 1 < N) C[row * N + col + 1] = y;
    }
}

__global__ void __launch_bounds__(kThreads)
    hgemm_async_stages(const __half* __restrict__ A, const __half* __restrict__ B, float* __restrict__ C, int M, int N,
                       int K, bool pairs, bool a_vectors, bool b_vectors) {
    // TODO(step 04): the stages in dynamic shared memory, kStages tiles of A
    // and then kStages tiles of B:
    //     extern __shared__ __align__(128) unsigned char shared[];
    //     auto As = reinterpret_cast<__half(*)[BM][kPitchA]>(shared);
    // and Bs the same, kStages * kStageAHalves halves further on.
    __shared__ __align__(128) __half As[BM][kPitchA];
    __shared__ __align__(128) __half Bs[BK][kPitchB];

    const int tid = threadIdx.x, warp = tid / 32, lane = tid % 32;
    const int block_row = blockIdx.y * BM, block_col = blockIdx.x * BN;
    const int warp_row = (warp / kWarpsN) * WM, warp_col = (warp % kWarpsN) * WN;  // within the block tile

    float acc[kMmaM][kMmaN][4] = {};

    // TODO(step 04): the pipeline. fetch(k0, stage), a lambda: the two copy
    // loops below with copy_8_halves_async into As[stage] and Bs[stage];
    // multiply(stage), a lambda: the kk loop below on As[stage] and Bs[stage].
    // Then, with tiles = ceil(K / BK):
    //   for s < kStages - 1: fetch tile s if s < tiles; copy_async_commit()
    //   for t < tiles:
    //     copy_async_wait<kStages - 2>();  this thread's copies of tile t landed
    //     __syncthreads();                 everyone's, and tile t - 1 is free
    //     fetch tile t + kStages - 1 into tile t - 1's stage, if it exists
    //     copy_async_commit();             always, so that the count stays right
    //     multiply(t % kStages);
    // The second __syncthreads below goes: one barrier per k-step.
    for (int k0 = 0; k0 < K; k0 += BK) {
        // The block's tiles of A (BM x BK) and B (BK x BN), 8 halves per copy.
#pragma unroll
        for (int n = 0; n < BM * BK / 8 / kThreads; ++n) {
            const int v = tid + n * kThreads, row = v / (BK / 8), col = v % (BK / 8) * 8;
            copy_8_halves(&As[row][col], A, block_row + row, k0 + col, M, K, a_vectors);
        }
#pragma unroll
        for (int n = 0; n < BK * BN / 8 / kThreads; ++n) {
            const int v = tid + n * kThreads, row = v / (BN / 8), col = v % (BN / 8) * 8;
            copy_8_halves(&Bs[row][col], B, k0 + row, block_col + col, K, N, b_vectors);
        }
        __syncthreads();  // the tiles are complete
#pragma unroll
        for (int kk = 0; kk < BK; kk += 16) {
            // A: the four 8 x 8 tiles of a 16 x 16 fragment are (rows 0-7, k 0-7),
            // (rows 8-15, k 0-7), (rows 0-7, k 8-15), (rows 8-15, k 8-15): lane l
            // points at row l % 16, column 8 (l / 16).
            std::uint32_t a[kMmaM][4];
#pragma unroll
            for (int i = 0; i < kMmaM; ++i) ldmatrix_x4(a[i], &As[warp_row + i * 16 + lane % 16][kk + lane / 16 * 8]);
            // B, stored k by n: transposed, the four tiles (k 0-7, n 0-7),
            // (k 8-15, n 0-7), (k 0-7, n 8-15), (k 8-15, n 8-15) are the two
            // registers of a 16 x 8 fragment for columns 0-7, then for 8-15.
            std::uint32_t b[kMmaN / 2][4];
#pragma unroll
            for (int j = 0; j < kMmaN / 2; ++j)
                ldmatrix_x4_trans(b[j], &Bs[kk + lane % 16][warp_col + j * 16 + lane / 16 * 8]);
#pragma unroll
            for (int i = 0; i < kMmaM; ++i)
#pragma unroll
                for (int j = 0; j < kMmaN; ++j)
                    mma_16x8x16(acc[i][j], a[i], b[j / 2][j % 2 * 2], b[j / 2][j % 2 * 2 + 1]);
        }
        __syncthreads();  // every warp is done with the tiles before they are overwritten
    }

    // Lane l holds, of each 16 x 8 accumulator, rows l / 4 and l / 4 + 8,
    // columns 2 (l % 4) and 2 (l % 4) + 1.
    const int group = lane / 4, pair = lane % 4 * 2;
#pragma unroll
    for (int i = 0; i < kMmaM; ++i) {
#pragma unroll
        for (int j = 0; j < kMmaN; ++j) {
            const int row = block_row + warp_row + i * 16 + group, col = block_col + warp_col + j * 8 + pair;
            store_pair(C, row, col, M, N, acc[i][j][0], acc[i][j][1], pairs);
            store_pair(C, row + 8, col, M, N, acc[i][j][2], acc[i][j][3], pairs);
        }
    }
}

}  // namespace

void hgemm::step04_async_copies(const __half* A, const __half* B, float* C, int M, int N, int K, cudaStream_t stream) {
    // TODO(step 04): course::note_if_copies_synchronously(kernel, "hgemm step
    // 04") (the line on Turing), course::allow_dynamic_shared(kernel,
    // kSharedBytes), and kSharedBytes as the launch's dynamic shared memory.
    // Both helpers take the kernel as a const void*:
    //     const void* kernel = reinterpret_cast<const void*>(hgemm_async_stages);
    const dim3 grid = grid_for(N, BN, M, BM);  // x over columns, y over rows
    const bool pairs = N % 2 == 0 && reinterpret_cast<std::uintptr_t>(C) % 8 == 0;
    hgemm_async_stages<<<grid, kThreads, 0, stream>>>(A, B, C, M, N, K, pairs, vectors_fit(A, K), vectors_fit(B, N));
    CUDA_CHECK_LAUNCH();
}

// The kernel's registers and shared memory, for the ladder's last columns.
// TODO(step 04): add kSharedBytes to the attributes' sharedSizeBytes
// (cudaFuncGetAttributes counts static shared memory only).
cudaFuncAttributes hgemm::step04_async_copies_attributes() { return attributes_of(hgemm_async_stages); }
