// Device helpers the occupancy track's kernels share (and the CPU reference,
// for the functions marked __host__).
#pragma once

#include <cuda_runtime.h>

namespace occupancy {

// --- Step 01: the work of one case ------------------------------------------

// Case c's constants: an odd multiplier, an increment and a shift, different
// for each of the 32 cases, so that no two cases compute the same thing.
__host__ __device__ constexpr unsigned case_multiplier(int c) { return 0x9E3779B1u + 0x10000u * 2u * unsigned(c); }
__host__ __device__ constexpr unsigned case_increment(int c) { return 0x7F4A7C15u ^ (0x01000193u * unsigned(c + 1)); }
__host__ __device__ constexpr int case_shift(int c) { return 7 + c % 11; }

// `rounds` rounds of case kCase's mix: a multiply-add, a shift and an xor per
// round. A template, so that each case of a switch is a loop of its own with
// its constants built in: nothing for the compiler to share between cases.
template <int kCase>
__host__ __device__ inline unsigned mix_case(unsigned v, int rounds) {
    constexpr unsigned multiplier = case_multiplier(kCase);
    constexpr unsigned increment = case_increment(kCase);
    constexpr int shift = case_shift(kCase);
    for (int r = 0; r < rounds; ++r) {
        v = v * multiplier + increment;
        v ^= v >> shift;
    }
    return v;
}

// The same with the case as a value: the CPU reference.
inline unsigned mix_case_cpu(unsigned v, int c, int rounds) {
    for (int r = 0; r < rounds; ++r) {
        v = v * case_multiplier(c) + case_increment(c);
        v ^= v >> case_shift(c);
    }
    return v;
}

// The short cases: one instruction each (an add, an xor or a multiply by an
// odd constant, by case). The loop applies it `rounds` times.
template <int kCase>
__host__ __device__ inline unsigned short_case(unsigned v) {
    constexpr unsigned k = case_increment(kCase) | 1u;
    if constexpr (kCase % 3 == 0) return v + k;
    if constexpr (kCase % 3 == 1) return v ^ k;
    return v * k;
}

inline unsigned short_case_cpu(unsigned v, int c) {
    const unsigned k = case_increment(c) | 1u;
    return c % 3 == 0 ? v + k : c % 3 == 1 ? v ^ k : v * k;
}

// --- Steps 03 to 06 -----------------------------------------------------------

// What the memory-bound kernel does to each element: one multiply-add.
__host__ __device__ constexpr unsigned stream_transform(unsigned x) { return x * 2654435761u + 0x9E3779B9u; }

// Where step 03's kernels (and the probe kernels of the calculator) take the
// values they hold in registers: 16-byte words of device memory that the
// kernel itself might overwrite, as far as the compiler can tell (any store
// through a pointer may land here). So it must load them where the code
// says, before the kernel's loop of stores, and keep them until they are
// used after it: it can neither load them again later nor compute them.
// Zeros, as every __device__ variable starts; nothing writes them.
namespace {
__device__ uint4 held_words[64];
}  // namespace

// Word j (0 <= j < 64) of held_words.
__device__ inline uint4 held_word(int j) { return held_words[j]; }

}  // namespace occupancy
