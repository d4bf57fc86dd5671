// Device-side helpers of the convolution track, shared by the steps'
// kernels: which pixels the filter changes, reading a row safely near its
// ends, and loading or storing a whole word of bytes (4 or 16) when the rows
// allow it and byte by byte when they do not.
//
// Included by the kernel.cu files only (it needs nvcc).
#pragma once

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

// Byte i (0 = lowest address) of a 4- or 16-byte word. With i known at
// compile time (a constant, or an unrolled loop's counter) this is a shift
// or a byte permute in registers, no memory.
__device__ __forceinline__ std::uint8_t byte_of(std::uint32_t word, int i) {
    return static_cast<std::uint8_t>(word >> (8 * i));
}
__device__ __forceinline__ std::uint8_t byte_of(const uint4& word, int i) {
    const std::uint32_t part = i < 4 ? word.x : i < 8 ? word.y : i < 12 ? word.z : word.w;
    return byte_of(part, i % 4);
}
__device__ __forceinline__ void set_byte(std::uint32_t& word, int i, std::uint8_t value) {
    word = (word & ~(0xffu << (8 * i))) | static_cast<std::uint32_t>(value) << (8 * i);
}
__device__ __forceinline__ void set_byte(uint4& word, int i, std::uint8_t value) {
    std::uint32_t& part = i < 4 ? word.x : i < 8 ? word.y : i < 12 ? word.z : word.w;
    set_byte(part, i % 4, value);
}

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

// Stores the bytes of `word` at row[x ..], none at or past `width`: one
// 4- or 16-byte store when the word lies wholly inside the image row and
// kAligned, byte by byte otherwise (at the right edge of an image whose
// width is not a multiple of the word, and for rows that are not aligned).
template <bool kAligned, typename Word>
__device__ __forceinline__ void store_word(std::uint8_t* row, int x, int width, const Word& word) {
    constexpr int kBytes = static_cast<int>(sizeof(Word));
    if (kAligned && x + kBytes <= width) {
        *reinterpret_cast<Word*>(row + x) = word;
    } else {
#pragma unroll
        for (int i = 0; i < kBytes; ++i)
            if (x + i < width) row[x + i] = byte_of(word, i);
    }
}

}  // namespace convolution::device
