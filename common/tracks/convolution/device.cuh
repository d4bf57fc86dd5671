// Device-side helpers of the convolution track, shared by the steps'
// kernels: which pixels the filter changes, reading a row safely near its
// ends, and loading a whole word of bytes (4 or 16) when the rows allow it
// and byte by byte when they do not (storing one: course/byte_words.cuh).
//
// Included by the kernel.cu files only (it needs nvcc).
#pragma once

#include "course/byte_words.cuh"
#include "tracks/convolution/kernels.h"

#include <cstddef>
#include <cstdint>

namespace convolution::device {

// True for the pixels the filter changes: those with a full 5x5
// neighbourhood. The 2-pixel frame around them is copied through.
__device__ __forceinline__ bool is_interior(int x, int y, int width, int height) {
    return x >= kRadius && y >= kRadius && x < width - kRadius && y < height - kRadius;
}

// The start of row y of `image`, with y clamped into the image. A tile that
// hangs over the top or bottom edge then reads real pixels (the wrong ones),
// which only ever reach frame pixels, and those are copied, not filtered.
__device__ __forceinline__ const std::uint8_t* clamped_row(const std::uint8_t* image, int y, int height, int pitch) {
    y = y < 0 ? 0 : y >= height ? height - 1 : y;
    return image + static_cast<std::size_t>(y) * static_cast<std::size_t>(pitch);
}

// Pixel x of a row, or 0 for x outside the row's memory [0, pitch): a tile
// that hangs over the left or right edge reads zeros there, again only for
// frame pixels. (Bytes between the width and the pitch are padding: reading
// them is harmless; only writing there would be wrong.)
__device__ __forceinline__ std::uint8_t load_byte(const std::uint8_t* row, int x, int pitch) {
    return x >= 0 && x < pitch ? row[x] : 0;
}

using course::device::byte_of;
using course::device::set_byte;
using course::device::store_word;

// The bytes row[x .. x + sizeof(Word)) as one word (Word: std::uint32_t or
// uint4), bytes outside the row's memory read as 0.
//  * kAligned (the launcher checked rows_aligned for sizeof(Word), and x is
//    a multiple of it): one 4- or 16-byte load. With such rows a word is
//    either wholly inside [0, pitch) or wholly outside, never across.
//  * otherwise: byte by byte, each one checked.
template <bool kAligned, typename Word>
__device__ __forceinline__ Word load_word(const std::uint8_t* row, int x, int pitch) {
    Word word{};
    if constexpr (kAligned) {
        if (x >= 0 && x < pitch) word = *reinterpret_cast<const Word*>(row + x);
    } else {
#pragma unroll
        for (int i = 0; i < static_cast<int>(sizeof(Word)); ++i) set_byte(word, i, load_byte(row, x + i, pitch));
    }
    return word;
}

}  // namespace convolution::device
