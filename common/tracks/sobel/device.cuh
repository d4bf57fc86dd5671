// Device-side helpers of the Sobel track, shared by the steps' kernels:
// clamping a coordinate into the image (the track's border rule), reading a
// pixel from global memory or from the texture with it, and the byte-word
// helpers of course/byte_words.cuh.
//
// Included by the kernel.cu files only (it needs nvcc).
#pragma once

#include "course/byte_words.cuh"
#include "tracks/sobel/kernels.h"

#include <cstddef>
#include <cstdint>

namespace sobel::device {

using course::device::byte_of;
using course::device::set_byte;
using course::device::store_word;

// v clamped into [0, size): the nearest row or column inside the image.
__device__ __forceinline__ int clamp_to(int v, int size) { return v < 0 ? 0 : v >= size ? size - 1 : v; }

// The start of row y, y clamped into the image.
__device__ __forceinline__ const std::uint8_t* clamped_row(const std::uint8_t* image, int y, int height, int pitch) {
    return image + static_cast<std::size_t>(clamp_to(y, height)) * static_cast<std::size_t>(pitch);
}

// Pixel (x, y), or the nearest pixel inside the image: one global load.
__device__ __forceinline__ int pixel(const Params& p, int x, int y) {
    return clamped_row(p.in, y, p.height, p.pitch)[clamp_to(x, p.width)];
}

// Pixel (x, y) through a texture made with clamp addressing and point
// sampling (the steps' _desc): the texture unit clamps, so x and y may lie
// outside the image. Unnormalized coordinates name a texel's corner; the
// + 0.5f samples its centre.
__device__ __forceinline__ int texel(cudaTextureObject_t texture, int x, int y) {
    return tex2D<unsigned char>(texture, static_cast<float>(x) + 0.5f, static_cast<float>(y) + 0.5f);
}

}  // namespace sobel::device
