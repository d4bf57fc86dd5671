// Helpers shared by the hgemm kernels (the kernel.cu files of lessons/ and
// solutions/; they need nvcc). Each is introduced by the step that first needs
// it, and explained in that step's README:
//
//   attributes_of       every step: the kernel's registers and shared memory
//   half_or_zero        step 01: an element of A or B, or 0 outside it
//   stage_tile          step 01: a 16 x 16 tile copied into shared memory,
//                       zeros outside the matrix (the checked path)
//   store_tile_checked  step 01: a 16 x 16 tile of C written back from shared
//                       memory, only the elements inside C
//   fragments_fit       step 01: may WMMA load and store straight from global
//                       memory?
//   vectors_fit         step 02: may a matrix be read 8 halves (16 bytes) at
//                       a time?
//   copy_8_halves       step 02: 8 halves of a row into shared memory, one
//                       16-byte load where it fits, zeros outside the matrix
//   copy_8_halves_async step 04: the same with cp.async (course/async_copy.cuh):
//                       the copy is issued and lands later
//   tile_position       step 05: the order the blocks take the tiles of C in,
//                       groups of kGroupRows tile rows (L2 reuse); steps 06
//                       and 07 launch in it too, and the persistent blocks of
//                       steps 08 and 09 walk it
#pragma once

#include "course/async_copy.cuh"
#include "course/check.h"
#include "course/launch_helpers.h"
#include "tracks/hgemm/kernels.h"

#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <cstdint>

namespace hgemm {

// The ladder's "regs" and "smem/block" come from course::attributes_of
// (course/launch_helpers.h), named here for the kernel files of this track.
using course::attributes_of;

// X is rows x cols, row-major: X[row][col], or 0 outside X. A zero term adds
// nothing to a dot product, so a tile that hangs over the edge of A or B is
// padded with zeros and the tensor cores need no special case.
__device__ inline __half half_or_zero(const __half* __restrict__ X, int row, int col, int rows, int cols) {
    return row < rows && col < cols ? X[row * cols + col] : __float2half(0.0f);
}

// One warp copies the 16 x 16 tile of X (rows x cols) that starts at (row0,
// col0) into `tile` (16 x 16, row-major, 32-byte aligned), zeros outside X:
// 8 elements per lane, consecutive lanes on consecutive columns. The caller
// synchronises the warp (__syncwarp) before reading the tile.
__device__ inline void stage_tile(__half* tile, const __half* __restrict__ X, int row0, int col0, int rows, int cols,
                                  int lane) {
    for (int i = lane; i < 16 * 16; i += 32) tile[i] = half_or_zero(X, row0 + i / 16, col0 + i % 16, rows, cols);
}

// One warp writes the elements of `tile` (16 x 16 floats in shared memory,
// row-major) that fall inside C (M x N) to C[row0 ..][col0 ..]. The caller
// synchronises the warp after storing the tile and before this.
__device__ inline void store_tile_checked(float* __restrict__ C, const float* tile, int row0, int col0, int M, int N,
                                          int lane) {
    for (int i = lane; i < 16 * 16; i += 32) {
        const int row = row0 + i / 16, col = col0 + i % 16;
        if (row < M && col < N) C[row * N + col] = tile[i];
    }
}

// True when WMMA may load A's and B's 16 x 16 tiles and store C's straight
// from global memory, wherever a tile lies wholly inside its matrix:
// load_matrix_sync and store_matrix_sync need a 32-byte aligned tile start and
// a row pitch (ldm) that is a multiple of 16 bytes. Tiles start at multiples
// of 16 rows and 16 columns, so that holds when the matrices start 32-byte
// aligned and K and N are multiples of 8 (8 halves, or 4 floats and more, are
// 16 bytes).
inline bool fragments_fit(const __half* A, const __half* B, const float* C, int N, int K) {
    const auto aligned32 = [](const void* p) { return reinterpret_cast<std::uintptr_t>(p) % 32 == 0; };
    return N % 8 == 0 && K % 8 == 0 && aligned32(A) && aligned32(B) && aligned32(C);
}

// True when X (rows of `cols` halves) may be read 8 halves at a time from any
// column that is a multiple of 8: X starts 16-byte aligned and every row
// does too (cols a multiple of 8).
inline bool vectors_fit(const __half* X, int cols) {
    return cols % 8 == 0 && reinterpret_cast<std::uintptr_t>(X) % 16 == 0;
}

// X[row][col .. col + 7] into dst (16-byte aligned shared memory), zeros
// outside X. With `vectors` (vectors_fit) and col a multiple of 8, the 8
// halves are one 16-byte load whenever they lie inside X; otherwise they are
// loaded one by one.
__device__ inline void copy_8_halves(__half* dst, const __half* __restrict__ X, int row, int col, int rows, int cols,
                                     bool vectors) {
    if (vectors && row < rows && col + 8 <= cols) {
        *reinterpret_cast<uint4*>(dst) = *reinterpret_cast<const uint4*>(X + row * cols + col);
    } else {
#pragma unroll
        for (int j = 0; j < 8; ++j) dst[j] = half_or_zero(X, row, col + j, rows, cols);
    }
}

// The same 8 halves, copied asynchronously where they may be: with `vectors`
// and col a multiple of 8, one 16-byte cp.async, whose source size is 0 (16
// bytes of zeros, nothing read) when the piece lies outside X; since cols is
// then a multiple of 8 too, a piece is wholly inside or wholly outside. The
// copy lands at a later copy_async_wait. Otherwise (rows that are not 16-byte
// aligned) the halves are loaded and stored one by one, synchronously, as in
// copy_8_halves: the checked path, correct in any pipeline whose barrier
// follows the store.
__device__ inline void copy_8_halves_async(__half* dst, const __half* __restrict__ X, int row, int col, int rows,
                                           int cols, bool vectors) {
    if (vectors) {
        const bool inside = row < rows && col < cols;
        // Outside, the source is X's first element: no address past X is formed.
        course::device::copy_async_or_zero<16>(dst, inside ? X + static_cast<long long>(row) * cols + col : X, inside);
    } else {
#pragma unroll
        for (int j = 0; j < 8; ++j) dst[j] = half_or_zero(X, row, col + j, rows, cols);
    }
}

// The tile of C that comes tile-th (tile from 0 to tiles_m x tiles_n - 1: a
// block's linear index in steps 05 to 07, a persistent block's count in steps
// 08 and 09): groups of kGroupRows tile rows (the last group may have fewer),
// and inside a group column by column, down the group's rows. Row by row, the
// blocks running at one time cover a few tile rows and every column strip of
// B; where B is larger than L2, a strip is gone before the next tile rows need
// it. In this order they cover kGroupRows tile rows and a few tile columns, so
// that each strip of B fetched serves kGroupRows blocks while it is in L2.
constexpr int kGroupRows = 8;
__device__ inline void tile_position(int tile, int tiles_m, int tiles_n, int& tile_row, int& tile_col) {
    const int per_group = kGroupRows * tiles_n, group = tile / per_group;
    const int first_row = group * kGroupRows, rows = min(kGroupRows, tiles_m - first_row);
    const int within = tile - group * per_group;
    tile_row = first_row + within % rows;
    tile_col = within / rows;
}

}  // namespace hgemm
