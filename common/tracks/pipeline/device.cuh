// Device-side helpers of the image pipeline track, shared by the steps'
// kernels: clamping a coordinate into the image (the track's border rule) and
// the addresses of a pixel in each image.
//
// Included by the kernel.cu files only (it needs nvcc).
#pragma once

#include "tracks/pipeline/kernels.h"

#include <cstddef>
#include <cstdint>

namespace pipeline::device {

// v clamped into [0, size): the nearest row or column inside the image.
__device__ __forceinline__ int clamp_to(int v, int size) { return v < 0 ? 0 : v >= size ? size - 1 : v; }

// Byte offset of pixel (x, y) in an 8-bit image with rows `pitch` bytes apart.
__device__ __forceinline__ std::size_t at(int x, int y, int pitch) {
    return static_cast<std::size_t>(y) * static_cast<std::size_t>(pitch) + static_cast<std::size_t>(x);
}

// Pixel (x, y) of an 8-bit image of the problem's size and pitch, or the
// nearest pixel inside it: one global load.
__device__ __forceinline__ int clamped(const std::uint8_t* image, const Params& p, int x, int y) {
    return image[at(clamp_to(x, p.width), clamp_to(y, p.height), p.pitch)];
}

// The grey of RGB pixel (x, y), or of the nearest pixel inside the image
// (rule 1): three byte loads.
__device__ __forceinline__ int grey_at(const Params& p, int x, int y) {
    const std::uint8_t* rgb = p.rgb + at(3 * clamp_to(x, p.width), clamp_to(y, p.height), p.rgb_pitch);
    return grey_of(rgb[0], rgb[1], rgb[2]);
}

}  // namespace pipeline::device
