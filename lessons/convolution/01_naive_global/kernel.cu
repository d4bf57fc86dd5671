// Convolution, step 01: naive global memory, one pixel per thread.
//                                                           (your starting point)
//
// Write the kernel body: each thread computes one output pixel from the 25
// input pixels under the filter, read straight from global memory. The
// launcher below is complete (one thread per pixel, params.block threads per
// block). README.md in this folder explains the step; run your kernel with
// `meson compile -C build convolution-01 && build/lessons/convolution-01`.
#include "tracks/convolution/device.cuh"
#include "tracks/convolution/kernels.h"

#include "course/check.h"

namespace {

using convolution::kFilterSize;
using convolution::kRadius;

// TODO(step 01): kMemoryOnly is the "memory only" variant the ladder times
// as well. It must do the same 25 loads and the same store, but combine the
// pixels with an XOR (mix ^= pixel) instead of the weighted sum, and store
// the low byte of the XOR. (The loads must feed the result, or the compiler
// drops them.)
template <bool kMemoryOnly>
__global__ void naive_global(const convolution::Params p) {
    // TODO(step 01): this thread's pixel: x from blockIdx.x, blockDim.x and
    // threadIdx.x; y likewise from the .y members. The grid is rounded up to
    // whole blocks, so return at once if x >= p.width or y >= p.height.
    //
    // TODO(step 01): row y of the input starts at
    // p.in + static_cast<std::size_t>(y) * p.pitch (pitch: bytes from one
    // row to the next, at least the width).
    //
    // TODO(step 01): pixels within 2 of an edge (the frame; see
    // convolution::device::is_interior) are copied: the result is the input
    // pixel itself. For the others, add up
    //     p.filter.weights[(dy + 2) * kFilterSize + (dx + 2)] * in(x + dx, y + dy)
    // for dy and dx from -kRadius to kRadius, in an int, and turn the sum
    // into the result with convolution::scale_and_clamp(sum, p.filter.scale).
    // In the kMemoryOnly variant (if constexpr), XOR the 25 pixels instead.
    //
    // TODO(step 01): store the result at p.out, row y, column x.
}

}  // namespace

void convolution::step01_naive_global(const Params& p, cudaStream_t stream) {
    const auto kernel = p.memory_only ? naive_global<true> : naive_global<false>;
    kernel<<<grid_for(p, 1), p.block, 0, stream>>>(p);
    CUDA_CHECK_LAUNCH();
}
