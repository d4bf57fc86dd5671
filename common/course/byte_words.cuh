// Bytes packed in 4- and 16-byte words, for kernels on 8-bit images that
// load and store whole words (the convolution and Sobel tracks): reading and
// setting one byte of a word in registers, and storing a word at the right
// edge of a row without writing past it.
//
// Included by .cu files only (it needs nvcc).
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

namespace course::device {

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

// Stores the bytes of `word` at row[x ..], none at or past `width`: one
// 4- or 16-byte store when the word lies wholly inside the image row and
// kAligned (the rows start on sizeof(Word)-byte boundaries and x is a
// multiple of it), byte by byte otherwise (at the right edge of an image
// whose width is not a multiple of the word, and for rows that are not
// aligned).
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

}  // namespace course::device
