// The Sobel track, after K. Mueller and S. Ha, "CUDA Memory Optimization"
// (MIC-GPU: High-Performance Computing for Medical Imaging on Programmable
// Graphics Hardware, SPIE Medical Imaging 2016): the edge magnitude of an
// 8-bit grey image, from twelve global reads per pixel to a sliding window in
// registers. This header is what a step's kernel.cu sees: the rule that makes
// a pixel, the launcher every step defines and the helpers the launchers
// share (the device helpers: tracks/sobel/device.cuh). The problem, the CPU
// reference, the copy and NPP rungs and the ladder: tracks/sobel/track.h.
//
// The rule, the same in every step and in the CPU reference. Pixel (x, y)
// and its eight neighbours,
//
//   ul um ur       (x-1, y-1)  (x, y-1)  (x+1, y-1)
//   ml mm mr   =   (x-1, y  )  (x, y  )  (x+1, y  )
//   ll lm lr       (x-1, y+1)  (x, y+1)  (x+1, y+1)
//
// give
//
//   Horz = ur + 2 mr + lr - ul - 2 ml - ll
//   Vert = ul + 2 um + ur - ll - 2 lm - lr
//   out  = clamp(scale * (|Horz| + |Vert|), 0, 255)   with scale = 1
//
// (the slides' first kernel computes Vert with ll twice and no lr: a typo,
// which their second kernel corrects; this is the corrected formula). The
// slides' ComputeSobel takes a float scale; the track fixes it at 1, so every
// step is integer arithmetic, exact, and the sum is simply capped at 255:
// strong edges come out white. The centre mm is not used.
//
// The border: a neighbour outside the image is the nearest pixel inside it
// (the coordinates are clamped, what a texture's clamp address mode does).
// So the 1-pixel frame is filtered like any other pixel, every image from
// 1x1 up has a defined output, and a 1x1 image's pixel is 0 (no edges).
#pragma once

#include "course/kernel_copy.h"

#include <cuda_runtime.h>

#include <cstdint>

namespace sobel {

// The rule above, for one pixel's eight neighbours: the slides'
// ComputeSobel, with scale 1. Steps 02 to 04 and the CPU reference call it;
// step 01 computes the two gradients separately (its twelve reads), step 05
// the same sums in another order.
__host__ __device__ inline std::uint8_t edge_magnitude(int ul, int um, int ur, int ml, int mr, int ll, int lm, int lr) {
    const int horz = ur + 2 * mr + lr - ul - 2 * ml - ll;
    const int vert = ul + 2 * um + ur - ll - 2 * lm - lr;
    const int sum = (horz < 0 ? -horz : horz) + (vert < 0 ? -vert : vert);
    return static_cast<std::uint8_t>(sum < 255 ? sum : 255);
}

// Everything a step's launcher gets: the images, their size, and for the
// texture steps the input as a texture.
struct Params {
    const std::uint8_t* in = nullptr;  // width x height pixels, rows `pitch` bytes apart
    std::uint8_t* out = nullptr;       // the same size and pitch
    int width = 0;
    int height = 0;
    int pitch = 0;                    // bytes from one row's start to the next (>= width), in and out alike
    cudaTextureObject_t texture = 0;  // steps 03-04: the input as a texture, read as the step's _desc() says
                                      // (the track creates it once, outside the timed runs); 0 otherwise
};

// Every step's launcher: enqueues the step's kernel on `stream` for
// `params`, and checks the launch (CUDA_CHECK_LAUNCH). It must write every
// pixel of the image and nothing outside it (not the padding at the end of
// a row).
//
// The harness calls it many times on the same buffers (course/runner.h): a
// checked call on one input image, straight after it a checked call on
// another, the warm-up and timed launches, and a checked call on a third.
// Before each checked call it writes that image's pixels into `in` (and into
// the copy the texture reads, where there is one) and fills every byte of
// out's buffer, row padding included, with a poison pattern; before the
// warm-up it poisons out once more. It resets nothing else, and does nothing
// between the timed launches.
using Launcher = void (*)(const Params& params, cudaStream_t stream);
// The texture steps also say how their texture reads (cudaTextureDesc): the
// track binds the input to a texture object made with it.
using TextureDescriber = cudaTextureDesc (*)();

// The launchers, one per step: step<NN>_<folder name>, e.g.
// step02_eight_reads for lessons/sobel/02_eight_reads. A texture step also
// says how its texture reads: step<NN>_<folder name>_desc. The steps are
// listed once, in lessons/sobel/meson.build; Meson writes the list out as
// sobel_steps.h. (The inline namespace: see course/kernel_copy.h.)
inline namespace COURSE_KERNEL_COPY {
#define COURSE_STEP(number, launcher, title) void launcher(const Params& params, cudaStream_t stream);
#define COURSE_TEXTURE_STEP(number, launcher, title) \
    COURSE_STEP(number, launcher, title)             \
    cudaTextureDesc launcher##_desc();
#include "sobel_steps.h"
#undef COURSE_TEXTURE_STEP
#undef COURSE_STEP
}  // namespace COURSE_KERNEL_COPY

// --- Helpers the launchers share ---------------------------------------------

// The grid that covers the image with blocks of `block` threads when each
// block covers `block_width` x `block_height` pixels. Throws course::Error if
// the image needs more than the 65535 blocks a grid's y may have.
dim3 grid_for(const Params& params, int block_width, int block_height);

// True when `in`, `out` and every row start on a `bytes`-byte boundary: only
// then may a kernel load and store whole `bytes`-byte words (step 05 checks
// this and falls back to single bytes otherwise: an odd pitch, --pitch-pad 1).
bool rows_aligned(const Params& params, int bytes);

}  // namespace sobel
