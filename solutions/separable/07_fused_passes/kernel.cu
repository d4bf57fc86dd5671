// Separable, step 07: both passes in one kernel, the intermediate rows kept on
// chip (beyond the blog post).
//
// Step 06 writes the row pass's whole output to memory and reads it back: of
// the 16 bytes a pixel costs in DRAM traffic (read the input, write tmp, read
// tmp, write the output), 8 only carry the intermediate image. Here one block
// computes a tile of 128 x kTileHeight outputs in two phases:
//
//  1. the row pass for the tile's rows and the r rows above and below it (the
//     column pass's apron), each thread four pixels of a row at a time, into
//     shared memory;
//  2. __syncthreads(), then the column pass from shared memory, each thread
//     four columns of kRows rows, its window in registers, as in step 06.
//
// Only the input is read from memory and only the output written: 8 bytes a
// pixel, the copy's traffic. The apron's 2r rows of the row pass are computed
// by this block and again by the block above or below, and read twice (the
// second time mostly from the L2).
//
// The filter's length is a template parameter: the kernel is built for 7, 15,
// 31 and 63 taps, and a shorter filter runs in the next size up, centred,
// with zero weights around it (the same sums: a zero weight adds +0). With
// the length known, every loop unrolls and every window index is a constant:
// the multiply-adds are all that is left (step 06's loops, which take the
// length at run time, spend more instructions checking which tap applies than
// adding). The tile is 64 rows tall up to 31 taps and 32 rows at 63, so that
// it never passes 48 KiB, what every GPU gives a block without opting in.
#include "tracks/separable/device.cuh"
#include "tracks/separable/kernels.h"

#include "course/check.h"

#include <cstddef>

namespace {

using separable::device::filter_weights;
using separable::device::fma4;

constexpr int kThreadsX = 32;
constexpr int kThreadsY = 8;
constexpr int kTileWidth = 4 * kThreadsX;  // 128 outputs: one float4 per thread

// Rows of outputs per thread: 8 (a 64-row tile) up to 31 taps, 4 at 63.
__host__ __device__ constexpr int rows_per_thread(int taps) { return taps <= 31 ? 8 : 4; }

constexpr std::size_t shared_bytes(int taps) {
    return sizeof(float) * kTileWidth * (rows_per_thread(taps) * kThreadsY + taps - 1);
}
static_assert(shared_bytes(31) <= 48 * 1024 && shared_bytes(63) <= 48 * 1024,
              "the tile of row-pass outputs must fit the 48 KiB every GPU gives a block without opting in");

template <int kTaps, bool kVector>
__global__ void __launch_bounds__(kThreadsX * kThreadsY)
    fused_passes(const float* __restrict__ in, float* __restrict__ out, int width, int height) {
    constexpr int kRadius = kTaps / 2, kRows = rows_per_thread(kTaps), kTileHeight = kRows * kThreadsY;
    extern __shared__ float4 rows[];  // kTileHeight + 2r rows of kThreadsX float4s
    const int x = blockIdx.x * kTileWidth + 4 * threadIdx.x, y0 = blockIdx.y * kTileHeight;

    // 1. The row pass for image rows y0 - r .. y0 + kTileHeight - 1 + r (rows
    // past an edge repeat the edge row), into shared memory. Columns past the
    // right edge are computed from clamped pixels and never stored.
#pragma unroll 2
    for (int i = threadIdx.y; i < kTileHeight + 2 * kRadius; i += kThreadsY) {
        const int y = separable::clamp_index(y0 - kRadius + i, height);
        rows[i * kThreadsX + threadIdx.x] =
            separable::device::row_filter4_fixed<kTaps, kVector>(in + static_cast<std::size_t>(y) * width, x, width);
    }
    __syncthreads();

    // 2. The column pass from shared memory: columns x..x+3, tile rows
    // first .. first + kRows - 1.
    const int first = kRows * threadIdx.y;
    if (x >= width || y0 + first >= height) return;
    float4 sum[kRows];
#pragma unroll
    for (int j = 0; j < kRows; ++j) sum[j] = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
#pragma unroll
    for (int m = 0; m < kTaps + kRows - 1; ++m) {  // tile row first + m
        const float4 v = rows[(first + m) * kThreadsX + threadIdx.x];
#pragma unroll
        for (int j = 0; j < kRows; ++j)
            if (m - j >= 0 && m - j < kTaps) sum[j] = fma4(filter_weights[m - j], v, sum[j]);
    }
#pragma unroll
    for (int j = 0; j < kRows; ++j)
        if (y0 + first + j < height)
            separable::device::store4<kVector>(out + static_cast<std::size_t>(y0 + first + j) * width, x, width,
                                               sum[j]);
}

// The filter, centred in kTaps constant-memory weights with zeros around it.
template <int kTaps>
void upload_padded_filter(const separable::Params& p, cudaStream_t stream) {
    static float* bank = [] {
        void* address = nullptr;
        CUDA_CHECK(cudaGetSymbolAddress(&address, filter_weights));
        return static_cast<float*>(address);
    }();
    if (p.taps < kTaps) CUDA_CHECK(cudaMemsetAsync(bank, 0, kTaps * sizeof(float), stream));
    CUDA_CHECK(cudaMemcpyAsync(bank + (kTaps - p.taps) / 2, p.weights, p.taps * sizeof(float), cudaMemcpyDeviceToDevice,
                               stream));
}

template <int kTaps>
void launch(const separable::Params& p, cudaStream_t stream) {
    upload_padded_filter<kTaps>(p, stream);
    const dim3 block(kThreadsX, kThreadsY);
    const dim3 grid = separable::grid_for(p, kTileWidth, rows_per_thread(kTaps) * kThreadsY);
    if (separable::device::rows_allow_float4(p, p.in, p.out))
        fused_passes<kTaps, true><<<grid, block, shared_bytes(kTaps), stream>>>(p.in, p.out, p.width, p.height);
    else
        fused_passes<kTaps, false><<<grid, block, shared_bytes(kTaps), stream>>>(p.in, p.out, p.width, p.height);
    CUDA_CHECK_LAUNCH();
}

}  // namespace

void separable::step07_fused_passes(const Params& p, cudaStream_t stream) {
    if (p.taps <= 7)
        launch<7>(p, stream);
    else if (p.taps <= 15)
        launch<15>(p, stream);
    else if (p.taps <= 31)
        launch<31>(p, stream);
    else
        launch<63>(p, stream);
}
