// Hgemm, step 01: the tensor cores through WMMA, one warp per 16 x 16 tile of
// C, straight from global memory.
//
// nvcuda::wmma (<mma.h>) hands a warp three kinds of fragment: a 16 x 16
// tile of A, a 16 x 16 tile of B, and a 16 x 16 accumulator of C. The warp
// loads the two input tiles together (load_matrix_sync), multiplies them into
// the accumulator on the tensor cores (mma_sync: 16 x 16 x 16 = 4096
// multiply-adds in one call), and stores the accumulator (store_matrix_sync).
// How the 256 elements of a tile are spread over the warp's 32 lanes is not
// specified: only the warp as a whole holds a tile.
//
// Here each warp walks K in steps of 16 for its own output tile, loading every
// tile of A and B from global memory: each element of A is loaded once per
// column of tiles of C, as in the matmul track's step 02. Step 02 shares the
// tiles through shared memory.
//
// The edges. load_matrix_sync reads a whole 16 x 16 tile, and needs it to
// start 32-byte aligned with a row pitch that is a multiple of 16 bytes
// (fragments_fit, tracks/hgemm/device.cuh). A tile that hangs over the edge of
// A, B or C, or a shape whose pitch breaks the rule, takes the checked path:
// the warp copies the tile into its own corner of shared memory with zeros
// outside the matrix (stage_tile), and loads the fragment from there; the
// accumulator goes back through shared memory too, and only the elements
// inside C are written. Zeros add nothing to a dot product, so the arithmetic
// is the same on both paths, on the tensor cores; only the loads differ. (A
// second, scalar kernel for the edges would be simpler to write, but would
// compute part of C another way, in a second launch.)
#include "tracks/hgemm/device.cuh"
#include "tracks/hgemm/kernels.h"

#include "course/check.h"

#include <mma.h>

namespace {

using namespace nvcuda;
using hgemm::stage_tile;
using hgemm::store_tile_checked;

constexpr int kTile = 16;  // WMMA's m16n16k16 shape: 16 x 16 tiles, 16 terms per mma_sync
// 4 warps per block, 2 x 2 over C: a block covers 32 x 32 outputs.
constexpr int kWarpsM = 2;
constexpr int kWarpsN = 2;
constexpr int kWarps = kWarpsM * kWarpsN;
constexpr int kThreads = kWarps * 32;

__global__ void __launch_bounds__(kThreads)
    hgemm_wmma_direct(const __half* __restrict__ A, const __half* __restrict__ B, float* __restrict__ C, int M, int N,
                      int K, bool fits) {
    // The checked path's staging areas, one per warp (32-byte aligned, as
    // load_matrix_sync and store_matrix_sync need).
    __shared__ __align__(32) __half staged_a[kWarps][kTile * kTile];
    __shared__ __align__(32) __half staged_b[kWarps][kTile * kTile];
    __shared__ __align__(32) float staged_c[kWarps][kTile * kTile];

    const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    const int row0 = (blockIdx.y * kWarpsM + warp / kWarpsN) * kTile;  // this warp's tile of C
    const int col0 = (blockIdx.x * kWarpsN + warp % kWarpsN) * kTile;
    // The grid is rounded up to whole blocks: a warp past the edge has no tile.
    // The whole warp leaves together, and WMMA needs only its own warp.
    if (row0 >= M || col0 >= N) return;
    const bool whole = fits && row0 + kTile <= M && col0 + kTile <= N;

    wmma::fragment<wmma::matrix_a, kTile, kTile, kTile, __half, wmma::row_major> a;
    wmma::fragment<wmma::matrix_b, kTile, kTile, kTile, __half, wmma::row_major> b;
    wmma::fragment<wmma::accumulator, kTile, kTile, kTile, float> c;
    wmma::fill_fragment(c, 0.0f);
    for (int k0 = 0; k0 < K; k0 += kTile) {
        if (whole && k0 + kTile <= K) {
            wmma::load_matrix_sync(a, A + row0 * K + k0, K);
            wmma::load_matrix_sync(b, B + k0 * N + col0, N);
        } else {
            stage_tile(staged_a[warp], A, row0, k0, M, K, lane);
            stage_tile(staged_b[warp], B, k0, col0, K, N, lane);
            __syncwarp();  // the whole tile is in shared memory before any lane loads it
            wmma::load_matrix_sync(a, staged_a[warp], kTile);
            wmma::load_matrix_sync(b, staged_b[warp], kTile);
            __syncwarp();  // every lane has loaded before the next tile overwrites it
        }
        wmma::mma_sync(c, a, b, c);
    }
    if (whole) {
        wmma::store_matrix_sync(C + row0 * N + col0, c, N, wmma::mem_row_major);
    } else {
        wmma::store_matrix_sync(staged_c[warp], c, kTile, wmma::mem_row_major);
        __syncwarp();
        store_tile_checked(C, staged_c[warp], row0, col0, M, N, lane);
    }
}

}  // namespace

void hgemm::step01_wmma(const __half* A, const __half* B, float* C, int M, int N, int K, cudaStream_t stream) {
    const dim3 grid = grid_for(N, kWarpsN * kTile, M, kWarpsM * kTile);  // x over columns, y over rows
    hgemm_wmma_direct<<<grid, kThreads, 0, stream>>>(A, B, C, M, N, K, fragments_fit(A, B, C, N, K));
    CUDA_CHECK_LAUNCH();
}

// The kernel's registers and shared memory, for the ladder's last columns.
cudaFuncAttributes hgemm::step01_wmma_attributes() { return attributes_of(hgemm_wmma_direct); }
