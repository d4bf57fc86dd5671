// Image pipeline, step 05: one kernel from RGB to edges, the grey and
// blurred tiles kept in shared memory. (your starting point)
//
// This is step 04's solution with its tile loader, blur and Sobel kernels
// taken out and its grey kernel renamed fused_v5: the edges are not written
// yet. Fuse the three stages into fused_v5
// (TODO(step 05)); README.md in this folder explains the tiles and their
// halos. Run with
//     meson compile -C build pipeline-05 && build/lessons/pipeline-05
#include "tracks/pipeline/device.cuh"

#include "course/check.h"

namespace pipeline {

inline namespace COURSE_KERNEL_COPY {

namespace {

using device::at;
using device::clamped;

// TODO(step 05): declare the fused kernel's block, kBlockX = 32 by kBlockY = 8
// threads (one tile each), where fused_v5 uses it.

__global__ void fused_v5(Params p) {
    const int x = blockIdx.x * blockDim.x + threadIdx.x;
    const int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= p.width || y >= p.height) return;
    const std::uint8_t* rgb = p.rgb + at(3 * x, y, p.rgb_pitch);
    p.grey[at(x, y, p.pitch)] = static_cast<std::uint8_t>(grey_of(rgb[0], rgb[1], rgb[2]));
}

// TODO(step 05): fused_v5 above is still step 04's grey kernel (step 04's
// tile loader, blur and Sobel kernels are taken out). Make it the whole
// pipeline for a block of 32x8 threads, in shared memory:
//   1. the greys of a 40x16 tile (the block's pixels, 1 more each way for the
//      Sobel, 3 more for the blur), each computed from RGB at clamped
//      coordinates (device::grey_at), __syncthreads();
//   2. the row sums of the 34 blurred columns, each centred on its clamped
//      column, for all 16 grey rows, __syncthreads();
//   3. the 34x10 blurred tile from the row sums, each centred on its clamped
//      row, __syncthreads();
//   4. each thread's edge pixel from the blurred tile.
constexpr int kGreyX = 32, kGreyY = 2;  // step 02's shape: the grey kernel has no neighbours to share

}  // namespace

void step05_fused(const Params& p, cudaStream_t stream) {
    // TODO(step 05): one launch, blocks of 32x8 threads (the edges are not
    // written until fused_v5 does the work: the ladder's check fails).
    fused_v5<<<grid_for(p, kGreyX, kGreyY), dim3(kGreyX, kGreyY), 0, stream>>>(p);
    CUDA_CHECK_LAUNCH();
}

}  // namespace COURSE_KERNEL_COPY

}  // namespace pipeline
