// Separable, step 07: both passes in one kernel, the intermediate rows kept on
// chip.  (your starting point)
//
// This is step 06's solution with its column pass taken out: out is not
// written yet. Fuse the two passes into fused_passes (TODO(step 07)), so that
// the intermediate image never goes to memory. README.md in this folder
// explains the tile and its apron; run your kernel with
//     meson compile -C build separable-07 && build/lessons/separable-07
#include "tracks/separable/device.cuh"
#include "tracks/separable/kernels.h"

#include "course/check.h"

#include <cstddef>

namespace {

using separable::device::filter_weights;
using separable::device::fma4;

constexpr int kThreadsX = 32;  // a warp: 32 float4s, 512 contiguous bytes of a row
constexpr int kThreadsY = 8;
// TODO(step 07): kRows (8 output rows per thread) comes back with the column pass.

template <bool kVector>
__global__ void fused_passes(const float* __restrict__ in, float* __restrict__ tmp, int width, int height, int taps) {
    const int x = 4 * (blockIdx.x * kThreadsX + threadIdx.x), y = blockIdx.y * kThreadsY + threadIdx.y;
    if (x >= width || y >= height) return;
    const std::size_t offset = static_cast<std::size_t>(y) * width;
    const float4 sums = separable::device::row_filter4<kVector>(in + offset, x, width, taps);
    separable::device::store4<kVector>(tmp + offset, x, width, sums);
}

// TODO(step 07): fused_passes above is still step 06's row pass. Make it do
// both passes for a tile of 128 x 64 outputs (128 x 32 at 63 taps, 4 rows a
// thread, so that the shared tile stays within the 48 KiB a block gets
// without opting in): the row pass for the tile's rows and the r rows above
// and below it into shared memory (extern __shared__ float4 rows[]),
// __syncthreads(), then the column pass from shared memory, each thread 4
// columns of 8 rows (4 at 63 taps; step 06's column pass, its window read
// from shared memory instead of tmp). Then, to make the
// multiply-adds all that is left, give the kernel the filter's length as a
// template parameter (7, 15, 31, 63; a shorter filter padded with zero
// weights) and use row_filter4_fixed. README.md says how far to go.
template <bool kVector>
void launch(const separable::Params& p, cudaStream_t stream) {
    const dim3 block(kThreadsX, kThreadsY);
    fused_passes<kVector><<<separable::grid_for(p, 4 * kThreadsX, kThreadsY), block, 0, stream>>>(p.in, p.tmp, p.width,
                                                                                                  p.height, p.taps);
    CUDA_CHECK_LAUNCH();
    // TODO(step 07): one launch, no tmp: the tile's grid and its shared bytes.
}

}  // namespace

void separable::step07_fused_passes(const Params& p, cudaStream_t stream) {
    separable::device::upload_filter(p, stream);
    if (separable::device::rows_allow_float4(p, p.in, p.out) && separable::device::rows_allow_float4(p, p.tmp, p.tmp))
        launch<true>(p, stream);
    else
        launch<false>(p, stream);
}
