// The image pipeline track, after C. Angerer and J. Demouth, "CUDA
// Optimization with NVIDIA Nsight Visual Studio Edition" (NVIDIA, GTC 2015):
// an 8-bit RGB photo in, its edges out, in three stages (grey, a 7x7
// Gaussian blur, Sobel), from three naive kernels to one fused kernel, each
// step chosen by profiling. This header is what a step's kernel.cu sees: the
// rules that make a pixel, the launcher every step defines and the helpers
// the launchers share (the device helpers: tracks/pipeline/device.cuh). The
// problem, the CPU reference, the copy and NPP rungs and the ladder:
// tracks/pipeline/track.h.
//
// The rules, the same in every step and in the CPU reference; every value is
// an integer, so every step is exact.
//
//  1. Grey. The talk's weights, 0.298839 r + 0.586811 g + 0.114350 b, in
//     fixed point: each times 65536 and rounded (19585, 38457, 7494; they add
//     up to 65536 exactly, so white stays 255), the sum rounded to nearest:
//         grey = (19585 r + 38457 g + 7494 b + 32768) >> 16
//  2. Blur. The talk's 7x7 Gaussian: the weights are the outer product of
//     1 2 3 4 3 2 1 with itself (they add up to 16 x 16 = 256), the sum
//     divided by 256 and rounded to nearest:
//         blurred = (sum of w(i) w(j) grey(x + i, y + j), i, j = -3..3  + 128) >> 8
//     with w(i) = 4 - |i|. The sum is at most 256 x 255 = 65280.
//  3. Edges. The talk's 3x3 Sobel filters on the blurred image,
//         Gx = -1 0 1      Gy =  1  2  1
//              -2 0 2            0  0  0
//              -1 0 1           -1 -2 -1
//     and the magnitude sqrt(Gx^2 + Gy^2) rounded to the nearest integer,
//     capped at 255 (it can reach 1140). sqrt(s) of a whole number s is never
//     exactly halfway between two integers, so "nearest" is unambiguous.
//
// The border, the same at every stage: a stage that reads a pixel outside
// the image reads the nearest pixel inside it (its coordinates clamped).
// The blur near the border reads clamped greys; the Sobel near the border
// reads clamped blurred pixels (not blurred pixels of a larger image). Every
// image from 1x1 up has a defined output.
#pragma once

#include "course/kernel_copy.h"

#include <cuda_runtime.h>

#include <cstdint>

namespace pipeline {

// Rule 1: the grey of one pixel.
inline constexpr int kGreyR = 19585, kGreyG = 38457, kGreyB = 7494;
__host__ __device__ inline int grey_of(int r, int g, int b) {
    return (kGreyR * r + kGreyG * g + kGreyB * b + 32768) >> 16;
}

// Rule 2: the blur's taps. The filter reaches kRadius pixels each way; tap i
// (i = -3..3) weighs 4 - |i| along each axis.
inline constexpr int kRadius = 3;
inline constexpr int kTaps = 2 * kRadius + 1;
__host__ __device__ constexpr int gauss_weight(int i) { return kRadius + 1 - (i < 0 ? -i : i); }
// The blurred pixel from its weighted sum (0..65280).
__host__ __device__ inline int blur_of(int sum) { return (sum + 128) >> 8; }

// Rule 3: the edge pixel from the two gradients (each -1020..1020). sqrtf
// is correctly rounded (IEEE 754, on the CPU and in CUDA without
// -use_fast_math), and below the cap the distance from sqrt(s) to the
// nearest half-integer (at least 0.25 / 511) dwarfs a float's rounding, so
// this is exactly the nearest integer; tests/pipeline/test_reference.cpp
// checks it for every possible sum.
__host__ __device__ inline std::uint8_t edge_of(int gx, int gy) {
    const int s = gx * gx + gy * gy;
    const int n = static_cast<int>(sqrtf(static_cast<float>(s)) + 0.5f);
    return static_cast<std::uint8_t>(n < 255 ? n : 255);
}

// Everything a step's launcher gets: the images, their size, and two
// scratch images for the steps that pass images between kernels.
struct Params {
    const std::uint8_t* rgb = nullptr;  // width x height pixels, 3 bytes each (r, g, b), rows rgb_pitch bytes apart
    std::uint8_t* out = nullptr;        // the edges: width x height bytes, rows `pitch` bytes apart
    int width = 0;
    int height = 0;
    int rgb_pitch = 0;                // bytes from one row of `rgb` to the next (>= 3 * width)
    int pitch = 0;                    // bytes from one row of `out` to the next (>= width); the scratch images too
    std::uint8_t* grey = nullptr;     // scratch: the grey image, same size and pitch as `out`
    std::uint8_t* blurred = nullptr;  // scratch: the blurred image, same size and pitch as `out`
};

// Every step's launcher: enqueues the step's kernels on `stream` for
// `params`, and checks each launch (CUDA_CHECK_LAUNCH). It must write every
// pixel of the edge image and nothing outside it (not the padding at the end
// of a row); it may use the scratch images as it likes.
//
// The harness calls it many times on the same buffers (course/runner.h): a
// checked call on one RGB image, straight after it a checked call on
// another, the warm-up and timed launches, and a checked call on a third.
// Before each checked call it writes that image's pixels into `rgb` and
// fills every byte of out's buffer, row padding included, with a poison
// pattern; before the warm-up it poisons out once more. It resets nothing
// else: the scratch images hold what the previous call left in them.
using Launcher = void (*)(const Params& params, cudaStream_t stream);

// The launchers, one per step: step<NN>_<folder name>, e.g.
// step02_warp_rows for lessons/pipeline/02_warp_rows. The steps are listed
// once, in lessons/pipeline/meson.build; Meson writes the list out as
// pipeline_steps.h. (The inline namespace: see course/kernel_copy.h.)
inline namespace COURSE_KERNEL_COPY {
#define COURSE_STEP(number, launcher, title) void launcher(const Params& params, cudaStream_t stream);
#include "pipeline_steps.h"
#undef COURSE_STEP
}  // namespace COURSE_KERNEL_COPY

// --- Helpers the launchers share ---------------------------------------------

// The grid that covers the image with blocks of `block` threads when each
// block covers `block_width` x `block_height` pixels. Throws course::Error if
// the image needs more than the 65535 blocks a grid's y may have.
dim3 grid_for(const Params& params, int block_width, int block_height);

// True when `rgb`, `out` and both pitches are multiples of `bytes`: only then
// may a kernel load and store whole `bytes`-byte words (steps 06 to 09 check
// this and take a byte-by-byte path otherwise: --pitch-pad 1).
bool rows_aligned(const Params& params, int bytes);

}  // namespace pipeline
