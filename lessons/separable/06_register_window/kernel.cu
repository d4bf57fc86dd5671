// Separable, step 06: four outputs per thread, the window in registers,
// 16-byte loads.  (your starting point)
//
// This is step 05's solution, its filter moved to device.cuh's
// filter_weights and upload_filter (done for you, below). Rewrite both
// passes so that each thread
// computes four neighbouring outputs (eight rows of them in the column pass)
// from a window of inputs held in registers, read as float4s
// (TODO(step 06)). README.md in this folder explains the window; run your
// kernel with
//     meson compile -C build separable-06 && build/lessons/separable-06
#include "tracks/separable/kernels.h"

// TODO(step 06): done for you: the helpers this step introduces (load4,
// store4, row_filter4, fma4, upload_filter; read them).
#include "tracks/separable/device.cuh"

#include "course/check.h"

#include <cstddef>

namespace {

// TODO(step 06): done for you: the filter is separable::device::filter_weights
// (device.cuh), which upload_filter fills; step 05's kernels below already read
// it there. kBlock and padded_stride serve only step 05's tiles: delete them
// with the tiles.
constexpr int kBlock = 16;  // threads per block in x and in y: a 16 x 16 tile of outputs

using separable::device::filter_weights;

// The row tile's stride in words: at least `words`, and 16 banks past a
// multiple of 32, so the two half-warps of a 16-wide block read disjoint banks.
__host__ __device__ constexpr int padded_stride(int words) { return words + ((kBlock - words) % 32 + 32) % 32; }
static_assert(padded_stride(22) == 48 && padded_stride(16) == 16 && padded_stride(78) == 80,
              "padded_stride must round up to 16 mod 32");

// TODO(step 06): rewrite the row pass without a tile: a template <bool
// kVector> kernel in which each thread computes the four outputs x..x+3 of one
// row with row_filter4<kVector> (straight from global memory: the L1 serves
// what neighbouring windows share) and stores them with store4<kVector>. Use
// 32 x 8 threads and grid_for(p, 4 * 32, 8).
__global__ void row_pass_register(const float* __restrict__ in, float* __restrict__ tmp, int width, int height,
                                  int taps) {
    extern __shared__ float tile[];  // kBlock rows of kBlock + 2r pixels, `stride` words apart
    const int r = taps / 2, tile_width = kBlock + 2 * r, stride = padded_stride(tile_width);
    const int x0 = blockIdx.x * kBlock, y = blockIdx.y * kBlock + threadIdx.y;
    // A row past the bottom edge copies the last row: its sums are never stored.
    const float* row = in + static_cast<std::size_t>(separable::clamp_index(y, height)) * width;
    float* tile_row = tile + threadIdx.y * stride;
    for (int i = threadIdx.x; i < tile_width; i += kBlock)
        tile_row[i] = __ldg(&row[separable::clamp_index(x0 - r + i, width)]);
    __syncthreads();

    const int x = x0 + threadIdx.x;
    if (x >= width || y >= height) return;
    float sum = 0.0f;
    for (int k = 0; k < taps; ++k) sum += filter_weights[k] * tile_row[threadIdx.x + k];
    tmp[static_cast<std::size_t>(y) * width + x] = sum;
}

// TODO(step 06): rewrite the column pass the same way: each thread computes
// columns x..x+3 of kRows = 8 consecutive rows. Walk down the window, taps +
// kRows - 1 rows of tmp, one load4 each, and add each row into every output
// row j whose window holds it (tap k = m - j): the loop over j unrolled, so
// that the kRows float4 sums stay in registers. grid_for(p, 4 * 32, 8 * 8).
__global__ void column_pass_register(const float* __restrict__ tmp, float* __restrict__ out, int width, int height,
                                     int taps) {
    extern __shared__ float tile[];  // kBlock + 2r rows of kBlock pixels
    const int r = taps / 2, tile_height = kBlock + 2 * r;
    const int x = blockIdx.x * kBlock + threadIdx.x, y0 = blockIdx.y * kBlock;
    const int column = separable::clamp_index(x, width);
    for (int j = threadIdx.y; j < tile_height; j += kBlock)
        tile[j * kBlock + threadIdx.x] =
            __ldg(&tmp[static_cast<std::size_t>(separable::clamp_index(y0 - r + j, height)) * width + column]);
    __syncthreads();

    const int y = y0 + threadIdx.y;
    if (x >= width || y >= height) return;
    float sum = 0.0f;
    for (int k = 0; k < taps; ++k) sum += filter_weights[k] * tile[(threadIdx.y + k) * kBlock + threadIdx.x];
    out[static_cast<std::size_t>(y) * width + x] = sum;
}

}  // namespace

void separable::step06_register_window(const Params& p, cudaStream_t stream) {
    // TODO(step 06): after upload_filter (done), the float4 kernels when
    // rows_allow_float4 holds for in, out and tmp, the checked ones otherwise.
    separable::device::upload_filter(p, stream);
    const dim3 block(kBlock, kBlock), grid = grid_for(p, kBlock, kBlock);
    const int tile_width = kBlock + 2 * p.radius();
    const std::size_t row_tile_bytes = sizeof(float) * kBlock * padded_stride(tile_width);  // at most 5120 bytes
    const std::size_t column_tile_bytes = sizeof(float) * kBlock * tile_width;
    row_pass_register<<<grid, block, row_tile_bytes, stream>>>(p.in, p.tmp, p.width, p.height, p.taps);
    CUDA_CHECK_LAUNCH();
    column_pass_register<<<grid, block, column_tile_bytes, stream>>>(p.tmp, p.out, p.width, p.height, p.taps);
    CUDA_CHECK_LAUNCH();
}
