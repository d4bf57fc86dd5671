// Hgemm, step 02: WMMA on shared-memory tiles.                 (your starting point)
//
// This is the step 01 solution, renamed. Turn it into a block-tiled kernel: 8
// warps per block compute a 128 x 128 tile of C; for every 32 terms the block
// copies its 128 x 32 tile of A and 32 x 128 tile of B into shared memory once,
// and each warp loads its fragments from there for a 64 x 32 warp tile (4 x 2
// accumulators). The TODO(step 02) markers say where. README.md in this folder
// explains the step, and
// `meson compile -C build hgemm-02 && build/lessons/hgemm-02 --size 1024`
// runs your kernel against the CPU reference, beside the step 01 solution.
#include "tracks/hgemm/device.cuh"
#include "tracks/hgemm/kernels.h"

#include "course/check.h"

#include <mma.h>

namespace {

using namespace nvcuda;
// TODO(step 02): the tiles of A and B now come in through copy_8_halves
// (tracks/hgemm/device.cuh): `using hgemm::copy_8_halves;` here.
using hgemm::stage_tile;
using hgemm::store_tile_checked;

constexpr int kTile = 16;  // WMMA's m16n16k16 shape: 16 x 16 tiles, 16 terms per mma_sync
// TODO(step 02): the block tile: BM = BN = 128 outputs and BK = 32 terms per
// step; 8 warps, kWarpsM = 2 by kWarpsN = 4, each a WM x WN = 64 x 32 warp tile
// of kFragsM x kFragsN = 4 x 2 accumulators. The shared tiles' rows padded by
// kPad = 8 halves (16 bytes, to spread them over the banks):
// kPitchA = BK + kPad, kPitchB = BN + kPad. static_assert what the code below
// relies on: whole fragments per warp tile, BK a multiple of 16, the tiles
// shared evenly by the threads 8 halves at a time, and pitches that keep
// fragment starts 32-byte aligned.
// 4 warps per block, 2 x 2 over C: a block covers 32 x 32 outputs.
constexpr int kWarpsM = 2;
constexpr int kWarpsN = 2;
constexpr int kWarps = kWarpsM * kWarpsN;
constexpr int kThreads = kWarps * 32;

__global__ void __launch_bounds__(kThreads) hgemm_wmma_block(const __half* __restrict__ A, const __half* __restrict__ B,
                                                             float* __restrict__ C, int M, int N, int K, bool fits) {
    // TODO(step 02): the block's tiles in shared memory, 32-byte aligned:
    //     __shared__ __align__(32) __half As[BM][kPitchA];
    //     __shared__ __align__(32) __half Bs[BK][kPitchB];
    // staged_a and staged_b go; staged_c (the checked store) stays.
    // The checked path's staging areas, one per warp (32-byte aligned, as
    // load_matrix_sync and store_matrix_sync need).
    __shared__ __align__(32) __half staged_a[kWarps][kTile * kTile];
    __shared__ __align__(32) __half staged_b[kWarps][kTile * kTile];
    __shared__ __align__(32) float staged_c[kWarps][kTile * kTile];

    // TODO(step 02): the block's corner of C (block_row = blockIdx.y * BM,
    // block_col = blockIdx.x * BN) and the warp's corner within the block tile
    // (warp_row = warp / kWarpsN * WM, warp_col = warp % kWarpsN * WN). No early
    // return any more: every thread must reach the block's barriers.
    const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    const int row0 = (blockIdx.y * kWarpsM + warp / kWarpsN) * kTile;  // this warp's tile of C
    const int col0 = (blockIdx.x * kWarpsN + warp % kWarpsN) * kTile;
    // The grid is rounded up to whole blocks: a warp past the edge has no tile.
    // The whole warp leaves together, and WMMA needs only its own warp.
    if (row0 >= M || col0 >= N) return;
    const bool whole = fits && row0 + kTile <= M && col0 + kTile <= N;

    // TODO(step 02): kFragsM x kFragsN accumulators, all set to zero; the
    // fragments of A and B are loaded inside the loop, kFragsM and kFragsN of
    // them per 16 terms.
    wmma::fragment<wmma::matrix_a, kTile, kTile, kTile, __half, wmma::row_major> a;
    wmma::fragment<wmma::matrix_b, kTile, kTile, kTile, __half, wmma::row_major> b;
    wmma::fragment<wmma::accumulator, kTile, kTile, kTile, float> c;
    wmma::fill_fragment(c, 0.0f);
    // TODO(step 02): the loop over K in steps of BK:
    //   1. the block copies its tile of A (rows block_row.., columns k0..) and
    //      of B (rows k0.., columns block_col..) into As and Bs, 8 halves per
    //      copy_8_halves call (BM * BK / 8 / kThreads = 2 calls per thread for
    //      each), passing a_vectors and b_vectors; then __syncthreads();
    //   2. for kk = 0, 16 (up to BK): load the warp's kFragsM fragments of A
    //      from &As[warp_row + i * 16][kk] (pitch kPitchA) and kFragsN of B
    //      from &Bs[kk][warp_col + j * 16] (pitch kPitchB), and mma_sync every
    //      pair into c[i][j];
    //   3. __syncthreads() before the next tiles overwrite these.
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
    // TODO(step 02): store each of the warp's accumulators as step 01 stored
    // its one: its tile of C starts at row0 = block_row + warp_row + i * 16,
    // col0 = block_col + warp_col + j * 16; skip it if it lies outside C, store
    // it straight to C when `fits` and it is whole, otherwise through
    // staged_c[warp] and store_tile_checked, with a __syncwarp() after each
    // (the next tile reuses staged_c).
    if (whole) {
        wmma::store_matrix_sync(C + row0 * N + col0, c, N, wmma::mem_row_major);
    } else {
        wmma::store_matrix_sync(staged_c[warp], c, kTile, wmma::mem_row_major);
        __syncwarp();
        store_tile_checked(C, staged_c[warp], row0, col0, M, N, lane);
    }
}

}  // namespace

void hgemm::step02_wmma_shared(const __half* A, const __half* B, float* C, int M, int N, int K, cudaStream_t stream) {
    // TODO(step 02): a block per BM x BN tile of C: grid_for(N, BN, M, BM). Pass
    // the kernel, after `fits`, whether A and B may be copied 16 bytes at a
    // time: vectors_fit(A, K) and vectors_fit(B, N), for two parameters you
    // add to the kernel after `fits`: `bool a_vectors, bool b_vectors`.
    const dim3 grid = grid_for(N, kWarpsN * kTile, M, kWarpsM * kTile);  // x over columns, y over rows
    hgemm_wmma_block<<<grid, kThreads, 0, stream>>>(A, B, C, M, N, K, fragments_fit(A, B, C, N, K));
    CUDA_CHECK_LAUNCH();
}

// The kernel's registers and shared memory, for the ladder's last columns.
cudaFuncAttributes hgemm::step02_wmma_shared_attributes() { return attributes_of(hgemm_wmma_block); }
