// Hgemm, step 03: mma.sync and ldmatrix.                       (your starting point)
//
// This is the step 02 solution, renamed. Keep its tiles, warps and padding, and
// replace WMMA with the PTX instructions underneath, written as inline
// assembly: ldmatrix to load fragments from shared memory, mma.sync m16n8k16
// to multiply, and each lane's accumulators stored straight to C. The
// TODO(step 03) markers say where; README.md in this folder draws the
// fragments' register layout. `meson compile -C build hgemm-03 &&
// build/lessons/hgemm-03 --size 1024` runs your kernel against the CPU
// reference, beside the solutions of steps 01 and 02.
#include "tracks/hgemm/device.cuh"
#include "tracks/hgemm/kernels.h"

#include "course/check.h"

// TODO(step 03): WMMA goes (<mma.h>, nvcuda, store_tile_checked); the PTX
// helpers below need <cstdint> for std::uint32_t.
#include <mma.h>

namespace {

using namespace nvcuda;
using hgemm::copy_8_halves;
using hgemm::store_tile_checked;

// TODO(step 03): the warp tile stays 64 x 32, now as kMmaM x kMmaN = 4 x 4
// accumulators of 16 x 8 (mma.sync's m16n8): kMmaM = WM / 16, kMmaN = WN / 8.
// Fragments of B come in pairs (one ldmatrix .x4 loads two), so WN must be a
// multiple of 16.
constexpr int kTile = 16;  // WMMA's m16n16k16 shape: 16 x 16 tiles, 16 terms per mma_sync
// The block tile: BM x BN outputs, BK terms per step; 8 warps, 2 x 4 over it,
// each a WM x WN warp tile.
constexpr int BM = 128, BN = 128, BK = 32;
constexpr int kWarpsM = 2, kWarpsN = 4;
constexpr int WM = BM / kWarpsM, WN = BN / kWarpsN;        // 64 x 32
constexpr int kFragsM = WM / kTile, kFragsN = WN / kTile;  // 4 x 2 accumulators per warp
constexpr int kWarps = kWarpsM * kWarpsN;
constexpr int kThreads = kWarps * 32;
constexpr int kPad = 8;  // halves added to each row of the tiles: 16 bytes
constexpr int kPitchA = BK + kPad, kPitchB = BN + kPad;
static_assert(BM % (kWarpsM * kTile) == 0 && BN % (kWarpsN * kTile) == 0, "warp tiles must be whole fragments");
static_assert(BK % kTile == 0, "a step of BK terms must be whole mma_syncs");
static_assert((BM * BK / 8) % kThreads == 0 && (BK * BN / 8) % kThreads == 0,
              "the threads must share each tile evenly, 8 halves (16 bytes) each");
static_assert(kPitchA % 8 == 0 && kPitchB % 8 == 0, "a fragment's row pitch must be a multiple of 8 halves (16 bytes)");
static_assert((kTile * kPitchA * 2) % 32 == 0 && (kTile * kPitchB * 2) % 32 == 0,
              "fragments start every 16 rows: 16 padded rows must be a multiple of 32 bytes");

// TODO(step 03): the PTX helpers, each an asm volatile statement:
//   shared_address(p): __cvta_generic_to_shared(p) as a 32-bit address;
//   ldmatrix_x4(r, row): "ldmatrix.sync.aligned.m8n8.x4.shared.b16" into four
//     registers r[0..3], from the row address this lane gives;
//   ldmatrix_x4_trans(r, row): the same with ".trans";
//   mma_16x8x16(d, a, b0, b1): "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32",
//     d (4 floats, "+f") += a (4 registers) * {b0, b1}. m16n8k16 with FP16 needs
//     compute capability 8.0: under `#if __CUDA_ARCH__ >= 800`, else two
//     m16n8k8 (a[0], a[1], b0, then a[2], a[3], b1), for Turing;
//   store_pair(C, row, col, M, N, x, y, pairs): C[row][col] and C[row][col + 1],
//     only inside C; one float2 store when both are inside and `pairs`.
__global__ void __launch_bounds__(kThreads)
    hgemm_mma_ldmatrix(const __half* __restrict__ A, const __half* __restrict__ B, float* __restrict__ C, int M, int N,
                       int K, bool fits, bool a_vectors, bool b_vectors) {
    __shared__ __align__(32) __half As[BM][kPitchA];
    __shared__ __align__(32) __half Bs[BK][kPitchB];
    // TODO(step 03): no staging area for C: the lanes store their own
    // accumulators. (The kernel takes `pairs` instead of `fits`: may C be
    // written two floats at a time.)
    // The checked path's staging area for C, one 16 x 16 tile per warp.
    __shared__ __align__(32) float staged_c[kWarps][kTile * kTile];

    const int tid = threadIdx.x, warp = tid / 32, lane = tid % 32;
    const int block_row = blockIdx.y * BM, block_col = blockIdx.x * BN;
    const int warp_row = (warp / kWarpsN) * WM, warp_col = (warp % kWarpsN) * WN;  // within the block tile

    // TODO(step 03): the accumulators are plain floats, 4 per 16 x 8 tile:
    //     float acc[kMmaM][kMmaN][4] = {};
    wmma::fragment<wmma::accumulator, kTile, kTile, kTile, float> c[kFragsM][kFragsN];
#pragma unroll
    for (int i = 0; i < kFragsM; ++i)
#pragma unroll
        for (int j = 0; j < kFragsN; ++j) wmma::fill_fragment(c[i][j], 0.0f);

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
        for (int kk = 0; kk < BK; kk += kTile) {
            // TODO(step 03): per 16 terms, kMmaM fragments of A with
            // ldmatrix_x4 (lane l points at row warp_row + i * 16 + l % 16,
            // column kk + l / 16 * 8 of As), kMmaN / 2 pairs of fragments of B
            // with ldmatrix_x4_trans (row kk + l % 16, column
            // warp_col + j * 16 + l / 16 * 8 of Bs), then mma_16x8x16 for every
            // (i, j): B's registers for j are b[j / 2][j % 2 * 2] and the next.
            wmma::fragment<wmma::matrix_a, kTile, kTile, kTile, __half, wmma::row_major> a[kFragsM];
            wmma::fragment<wmma::matrix_b, kTile, kTile, kTile, __half, wmma::row_major> b[kFragsN];
#pragma unroll
            for (int i = 0; i < kFragsM; ++i) wmma::load_matrix_sync(a[i], &As[warp_row + i * kTile][kk], kPitchA);
#pragma unroll
            for (int j = 0; j < kFragsN; ++j) wmma::load_matrix_sync(b[j], &Bs[kk][warp_col + j * kTile], kPitchB);
#pragma unroll
            for (int i = 0; i < kFragsM; ++i)
#pragma unroll
                for (int j = 0; j < kFragsN; ++j) wmma::mma_sync(c[i][j], a[i], b[j], c[i][j]);
        }
        __syncthreads();  // every warp is done with the tiles before they are overwritten
    }

    // TODO(step 03): lane l holds rows l / 4 and l / 4 + 8, columns
    // 2 (l % 4) and 2 (l % 4) + 1 of each 16 x 8 accumulator: store_pair the
    // first two floats at (row, col) and the last two at (row + 8, col), with
    // row = block_row + warp_row + i * 16 + l / 4 and
    // col = block_col + warp_col + j * 8 + 2 (l % 4).
    // The warp's accumulators, one 16 x 16 tile of C each.
#pragma unroll
    for (int i = 0; i < kFragsM; ++i) {
#pragma unroll
        for (int j = 0; j < kFragsN; ++j) {
            const int row0 = block_row + warp_row + i * kTile, col0 = block_col + warp_col + j * kTile;
            if (row0 >= M || col0 >= N) continue;  // the same for the whole warp
            if (fits && row0 + kTile <= M && col0 + kTile <= N) {
                wmma::store_matrix_sync(C + row0 * N + col0, c[i][j], N, wmma::mem_row_major);
            } else {
                wmma::store_matrix_sync(staged_c[warp], c[i][j], kTile, wmma::mem_row_major);
                __syncwarp();
                store_tile_checked(C, staged_c[warp], row0, col0, M, N, lane);
                __syncwarp();  // every lane has read the tile before the next one overwrites it
            }
        }
    }
}

}  // namespace

void hgemm::step03_mma_ldmatrix(const __half* A, const __half* B, float* C, int M, int N, int K, cudaStream_t stream) {
    // TODO(step 03): pass `pairs` (N even and C 8-byte aligned) instead of
    // fragments_fit.
    const dim3 grid = grid_for(N, BN, M, BM);  // x over columns, y over rows
    hgemm_mma_ldmatrix<<<grid, kThreads, 0, stream>>>(A, B, C, M, N, K, fragments_fit(A, B, C, N, K), vectors_fit(A, K),
                                                      vectors_fit(B, N));
    CUDA_CHECK_LAUNCH();
}

// The kernel's registers and shared memory, for the ladder's last columns.
cudaFuncAttributes hgemm::step03_mma_ldmatrix_attributes() { return attributes_of(hgemm_mma_ldmatrix); }
