// Hgemm, step 01: the tensor cores through WMMA.              (your starting point)
//
// Write the warp's part of the kernel: one warp computes one 16 x 16 tile of
// C with nvcuda::wmma fragments (<mma.h>), loading the tiles of A and B
// straight from global memory where the tile rules hold, and through the
// shared-memory staging areas where they do not. The launcher below is
// complete, and so are the staging helpers (tracks/hgemm/device.cuh).
// README.md in this folder explains the step, and
// `meson compile -C build hgemm-01 && build/lessons/hgemm-01 --size 1024`
// runs your kernel against the CPU reference.
//
// All matrices are row-major: A is M x K halves, so A[row][k] is
// A[row * K + k]; B is K x N halves; C is M x N floats.
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
    // TODO(step 01): the checked path's staging areas in shared memory, one
    // 16 x 16 tile per warp each, 32-byte aligned (as load_matrix_sync and
    // store_matrix_sync need):
    //     __shared__ __align__(32) __half staged_a[kWarps][kTile * kTile];
    //     __shared__ __align__(32) __half staged_b[kWarps][kTile * kTile];
    //     __shared__ __align__(32) float staged_c[kWarps][kTile * kTile];
    // and, beside `warp`, the lane: lane = threadIdx.x % 32.
    const int warp = threadIdx.x / 32;
    const int row0 = (blockIdx.y * kWarpsM + warp / kWarpsN) * kTile;  // this warp's tile of C
    const int col0 = (blockIdx.x * kWarpsN + warp % kWarpsN) * kTile;
    // The grid is rounded up to whole blocks: a warp past the edge has no tile.
    // The whole warp leaves together, and WMMA needs only its own warp.
    if (row0 >= M || col0 >= N) return;
    // TODO(step 01): whether the tile takes the fast path: whole = fits and the
    // 16 x 16 tile lies inside C (row0 + kTile <= M, col0 + kTile <= N).

    // TODO(step 01): declare the warp's three fragments, all 16 x 16 x 16:
    //     wmma::fragment<wmma::matrix_a, kTile, kTile, kTile, __half, wmma::row_major> a;
    //     wmma::fragment<wmma::matrix_b, kTile, kTile, kTile, __half, wmma::row_major> b;
    //     wmma::fragment<wmma::accumulator, kTile, kTile, kTile, float> c;
    // and set the accumulator to zero (wmma::fill_fragment).
    //
    // TODO(step 01): walk K in steps of kTile (k0 = 0, 16, ...). When the tile
    // is `whole` and k0 + kTile <= K, load a from A + row0 * K + k0 (row pitch
    // K) and b from B + k0 * N + col0 (row pitch N) with
    // wmma::load_matrix_sync. Otherwise, the checked path: stage_tile the
    // 16 x 16 tiles of A (at row0, k0) and B (at k0, col0) into
    // staged_a[warp] and staged_b[warp], __syncwarp(), load the fragments from
    // there (row pitch kTile), and __syncwarp() again before the next tile
    // overwrites them. Then c += a * b: wmma::mma_sync(c, a, b, c).
    //
    // TODO(step 01): store c. A whole tile goes straight to C + row0 * N + col0
    // (row pitch N, wmma::mem_row_major); otherwise into staged_c[warp] (row
    // pitch kTile), then __syncwarp() and store_tile_checked, which writes
    // only the elements inside C.
}

}  // namespace

void hgemm::step01_wmma(const __half* A, const __half* B, float* C, int M, int N, int K, cudaStream_t stream) {
    const dim3 grid = grid_for(N, kWarpsN * kTile, M, kWarpsM * kTile);  // x over columns, y over rows
    hgemm_wmma_direct<<<grid, kThreads, 0, stream>>>(A, B, C, M, N, K, fragments_fit(A, B, C, N, K));
    CUDA_CHECK_LAUNCH();
}

// The kernel's registers and shared memory, for the ladder's last columns.
cudaFuncAttributes hgemm::step01_wmma_attributes() { return attributes_of(hgemm_wmma_direct); }
