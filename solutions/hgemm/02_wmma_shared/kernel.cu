// Hgemm, step 02: WMMA on shared-memory tiles, several warps per block, each
// with a warp tile of several fragments.
//
// Step 01 loads every 16 x 16 tile of A and B from global memory, once for
// each warp that needs it: the tile of A at (row0, k0) is read by every warp
// of that row of tiles of C. Here a block of 8 warps computes a 128 x 128
// tile of C. For each step of 32 terms it copies the 128 x 32 tile of A and
// the 32 x 128 tile of B into shared memory once (16-byte loads where they
// fit, zeros outside the matrices), and its warps load their fragments from
// there. Each warp owns a 64 x 32 warp tile: 4 x 2 accumulators, fed per 16
// terms by 4 fragments of A and 2 of B, so each fragment loaded from shared
// memory serves 2 or 4 mma_syncs. Global loads per multiply-add drop by the
// block tile's size, shared-memory loads by the warp tile's.
//
// Shared-memory rows are padded by 8 halves (16 bytes): a row of A's tile is
// 40 halves, one of B's 136. Without the padding, the rows a fragment load
// reads would start 64 bytes apart (A) or 256 (B): every second row of A's,
// and every row of B's, in the same banks. 16 padded rows are still a whole
// number of 32-byte units, so every fragment starts 32-byte aligned, as
// load_matrix_sync needs.
//
// The edges: tiles of A and B are loaded with zeros outside the matrices, so
// the arithmetic needs no special case; the accumulators of a 16 x 16 tile of
// C that is not whole go out through shared memory, as in step 01.
#include "tracks/hgemm/device.cuh"
#include "tracks/hgemm/kernels.h"

#include "course/check.h"

#include <mma.h>

namespace {

using namespace nvcuda;
using hgemm::copy_8_halves;
using hgemm::store_tile_checked;

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

__global__ void __launch_bounds__(kThreads)
    hgemm_wmma_block(const __half* __restrict__ A, const __half* __restrict__ B, float* __restrict__ C, int M, int N,
                     int K, bool fits, bool a_vectors, bool b_vectors) {
    __shared__ __align__(32) __half As[BM][kPitchA];
    __shared__ __align__(32) __half Bs[BK][kPitchB];
    // The checked path's staging area for C, one 16 x 16 tile per warp.
    __shared__ __align__(32) float staged_c[kWarps][kTile * kTile];

    const int tid = threadIdx.x, warp = tid / 32, lane = tid % 32;
    const int block_row = blockIdx.y * BM, block_col = blockIdx.x * BN;
    const int warp_row = (warp / kWarpsN) * WM, warp_col = (warp % kWarpsN) * WN;  // within the block tile

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

void hgemm::step02_wmma_shared(const __half* A, const __half* B, float* C, int M, int N, int K, cudaStream_t stream) {
    const dim3 grid = grid_for(N, BN, M, BM);  // x over columns, y over rows
    hgemm_wmma_block<<<grid, kThreads, 0, stream>>>(A, B, C, M, N, K, fragments_fit(A, B, C, N, K), vectors_fit(A, K),
                                                    vectors_fit(B, N));
    CUDA_CHECK_LAUNCH();
}

// The kernel's registers and shared memory, for the ladder's last columns.
cudaFuncAttributes hgemm::step02_wmma_shared_attributes() { return attributes_of(hgemm_wmma_block); }
