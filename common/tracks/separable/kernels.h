// The separable track, after a blog post on generic separable convolution in
// CUDA (GTX 1060 figures; it follows J. Cheng, M. Grossman and T. McKercher,
// "Professional CUDA C Programming", Wrox, 2014) and the 7x7 Gaussian of C.
// Angerer and J. Demouth, "CUDA Optimization with NVIDIA Nsight Visual Studio
// Edition" (GTC 2015). Full citations: the References section of README.md.
//
// A 32-bit float grey image of any width and height, filtered by a row pass
// and then a column pass with the same odd-length filter w (1 to 63 taps,
// r = taps / 2):
//
//   tmp(x, y) = sum over k in 0..taps-1 of w[k] * in(clamp(x + k - r), y)
//   out(x, y) = sum over k in 0..taps-1 of w[k] * tmp(x, clamp(y + k - r))
//
// where clamp keeps a coordinate inside the image (edges repeat the nearest
// pixel), so out has the input's size. Weight k multiplies the pixel k - r to
// the right of (below) the centre: correlation, as written. Two passes of
// `taps` multiply-adds each do the work of taps^2 for a full 2-D filter.
//
// This header is what a step's kernel.cu sees: the launcher every step
// defines and the helpers the launchers share. The image on the GPU, the CPU
// reference, the tolerance, the copy and NPP rungs and the ladder:
// tracks/separable/track.h.
#pragma once

#include "course/kernel_copy.h"

#include <cuda_runtime.h>

namespace separable {

inline constexpr int kMaxTaps = 63;
inline constexpr int kMaxRadius = kMaxTaps / 2;

// Everything a step's launcher gets. Images are width x height floats, row by
// row with no padding (row y starts at y * width).
struct Params {
    const float* in = nullptr;  // the input image
    float* out = nullptr;       // the output image, the same size
    float* tmp = nullptr;       // room for one more image: the row pass's output, for steps that store it
    int width = 0;
    int height = 0;
    const float* weights = nullptr;  // the filter, `taps` floats in device memory
    int taps = 0;                    // odd, 1 to kMaxTaps
    int radius() const { return taps / 2; }
};

// Every step's launcher: enqueues the step's kernels on `stream` for
// `params`, and checks each launch (CUDA_CHECK_LAUNCH). It must write every
// pixel of out and nothing outside it, for any width, height and taps the
// track allows.
using Launcher = void (*)(const Params& params, cudaStream_t stream);

// The launchers, one per step: step<NN>_<folder name>, e.g. step03_shared_tiles
// for lessons/separable/03_shared_tiles. The steps are listed once, in
// lessons/separable/meson.build; Meson writes the list out as
// separable_steps.h, one COURSE_STEP(number, launcher, title) line per step.
// (The inline namespace: see course/kernel_copy.h.)
inline namespace COURSE_KERNEL_COPY {
#define COURSE_STEP(number, launcher, title) void launcher(const Params& params, cudaStream_t stream);
#include "separable_steps.h"
#undef COURSE_STEP
}  // namespace COURSE_KERNEL_COPY

// Coordinate i moved inside 0 .. n-1: the edge pixel repeats outside the image.
__host__ __device__ inline int clamp_index(int i, int n) { return i < 0 ? 0 : i >= n ? n - 1 : i; }

// ceil(a / b) for positive ints.
__host__ __device__ constexpr int ceil_div(int a, int b) { return (a + b - 1) / b; }

// The grid that covers the image when each block covers tile_width x
// tile_height pixels, or course::Error past CUDA's limit of 65535 blocks in y.
dim3 grid_for(const Params& params, int tile_width, int tile_height);

}  // namespace separable
