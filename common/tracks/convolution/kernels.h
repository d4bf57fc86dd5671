// The convolution track, after J. Stam's "Convolution Soup: A case study in
// CUDA optimization" (NVIDIA GTC, 2009): a general 5x5 filter on an 8-bit
// grey image, from naive global memory to 16-byte, bank-conflict-free,
// unrolled. This header is what a step's kernel.cu sees: the filter, the
// launcher every step defines and the helpers the launchers share (the device
// helpers: tracks/convolution/device.cuh). The problem, the CPU reference,
// the copy and NPP rungs and the ladder: tracks/convolution/track.h.
//
// The filter, the same in every step and in the CPU reference:
//
//   S         = sum over dy, dx in -2..2 of weights[(dy + 2) * 5 + (dx + 2)] * in(x + dx, y + dy)
//   out(x, y) = clamp(trunc(float(S) * scale), 0, 255)
//
// for every pixel at least 2 pixels away from each edge. The 2-pixel frame
// has no full 5x5 neighbourhood; it is copied through unchanged (the talk left
// it alone too). S is an exact integer (|S| < 2^24, so float(S) is exact);
// float(S) * scale is a single IEEE single-precision multiply, rounded the same
// way on the GPU and the CPU; trunc drops the fraction (toward zero). So a
// correct kernel matches the CPU reference exactly, pixel for pixel.
//
// The weights are applied as written (correlation, as in the talk): weight
// (dy, dx) multiplies the pixel dx to the right of and dy below the centre.
// NPP's nppiFilter expects them the other way round; see the NPP rung in
// tracks/convolution/track.cpp.
#pragma once

#include "course/kernel_copy.h"

#include <cuda_runtime.h>

#include <cstdint>

namespace convolution {

inline constexpr int kFilterSize = 5;
inline constexpr int kRadius = 2;  // pixels of apron (and of frame) on each side
inline constexpr int kTaps = kFilterSize * kFilterSize;

struct Filter {
    int weights[kTaps];  // row by row: weights[(dy + 2) * 5 + (dx + 2)] multiplies in(x + dx, y + dy)
    float scale;         // applied to the weighted sum, see scale_and_clamp
};

// The track's filter: a sharpening filter (the weights sum to 64, so a flat
// area keeps its value), lopsided on purpose. It is not separable, so it
// cannot be done as a row pass and a column pass; it is not symmetric under
// a half turn, so a kernel that applies it upside down fails the check; and
// its negative weights push dark and bright edges past 0 and 255, so the
// clamp is exercised. Every weight fits a signed byte (step 10 packs them).
// scale = 1/64 is a power of two: float(S) * scale is then exact, and equals
// NPP's integer division by 64.
// clang-format off: five rows of five weights
inline constexpr Filter kFilter = {
    {
        -1, -2, 0, 1, 0, -2, 3, 4, -1, 1, 0, 5, 45, 6, -2, 1, -1, 7, 2, -3, 0, 2, -2, 1, 0,
    },
    1.0f / 64.0f};
// clang-format on

// The rule that turns a weighted sum into a pixel, the one every kernel and
// the CPU reference use: one single-precision multiply, truncated toward
// zero, clamped to 0..255.
__host__ __device__ inline std::uint8_t scale_and_clamp(int sum, float scale) {
    const int scaled = static_cast<int>(static_cast<float>(sum) * scale);  // the cast truncates
    return static_cast<std::uint8_t>(scaled < 0 ? 0 : scaled > 255 ? 255 : scaled);
}
// The same rule for a sum already held in a float (step 05 adds in float).
// Exact as long as the sum is an integer below 2^24, which it is.
__host__ __device__ inline std::uint8_t scale_and_clamp(float exact_sum, float scale) {
    const int scaled = static_cast<int>(exact_sum * scale);
    return static_cast<std::uint8_t>(scaled < 0 ? 0 : scaled > 255 ? 255 : scaled);
}

// Everything a step's launcher gets: the images, the filter, the launch
// shape and the variant to run.
struct Params {
    const std::uint8_t* in = nullptr;  // width x height pixels, rows `pitch` bytes apart
    std::uint8_t* out = nullptr;       // the same size and pitch
    int width = 0;
    int height = 0;
    int pitch = 0;  // bytes from one row's start to the next (>= width), in and out alike
    Filter filter = kFilter;
    dim3 block{16, 16};               // threads per block: --block, 16x16 unless the user asks otherwise
    cudaTextureObject_t texture = 0;  // steps 02-05: the input as a texture, read as the step's _desc()
                                      // says (the track creates it once, outside the timed runs); 0 otherwise
    bool memory_only = false;         // the "memory only" variant: the same loads and stores, no weighted sum
};

// Every step's launcher: enqueues the step's kernel on `stream` for
// `params` (the full filter, or the memory-only variant when
// params.memory_only), and checks the launch (CUDA_CHECK_LAUNCH). It must
// write every pixel of the image and nothing outside it (not the padding at
// the end of a row).
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

// The launchers, one per step: step<NN>_<folder name>, e.g. step06_global_shared
// for lessons/convolution/06_global_shared. A texture step (02-05) also says
// how its texture reads: step<NN>_<folder name>_desc. The steps are listed
// once, in lessons/convolution/meson.build; Meson writes the list out as
// convolution_steps.h, one COURSE_STEP(number, launcher, title) or
// COURSE_TEXTURE_STEP(number, launcher, title) line per step. (The inline
// namespace: see course/kernel_copy.h.)
inline namespace COURSE_KERNEL_COPY {
#define COURSE_STEP(number, launcher, title) void launcher(const Params& params, cudaStream_t stream);
#define COURSE_TEXTURE_STEP(number, launcher, title) \
    COURSE_STEP(number, launcher, title)             \
    cudaTextureDesc launcher##_desc();
#include "convolution_steps.h"
#undef COURSE_TEXTURE_STEP
#undef COURSE_STEP
}  // namespace COURSE_KERNEL_COPY

// --- Helpers the launchers share ---------------------------------------------

// The grid that covers the image when each thread produces
// `pixels_per_thread` consecutive pixels in each of `rows_per_thread`
// consecutive rows.
dim3 grid_for(const Params& params, int pixels_per_thread, int rows_per_thread = 1);

// True when `in`, `out` and every row start on a `bytes`-byte boundary
// (both pointers and the pitch are multiples of `bytes`): only then may a
// kernel load and store whole `bytes`-byte words at word-aligned x. The
// kernels that use 4- or 16-byte words check this and fall back to single
// bytes otherwise (an odd pitch, --pitch-pad 1).
bool rows_aligned(const Params& params, int bytes);

// The stride, in 4-byte words, between the rows of a shared-memory tile
// whose rows need at least `words` words, for blocks `block_width` threads
// wide (step 09). It is a multiple of 4, so rows stay 16-byte
// aligned; and when block_width is 4, 8 or 16 (narrower than a warp and a
// divisor of 32, so that one warp reads 32 / block_width rows at once), each
// row starts block_width banks after the one before: the rows a warp reads together fall on different
// banks. (A 16-wide block's tile rows of 72 words would start 8 banks apart,
// and the warp's two half-rows would share 8 banks; 80 words put them 16
// apart.) The talk pads a 16-wide tile to 17 columns for the same reason.
__host__ __device__ constexpr int conflict_free_stride(int words, int block_width) {
    int stride = (words + 3) / 4 * 4;
    if (block_width % 4 == 0 && block_width < 32 && 32 % block_width == 0)
        while (stride % 32 != block_width) stride += 4;
    return stride;
}

// k if scale is exactly 2^-k (0 <= k <= 24), else -1. For such a scale,
// trunc(float(S) * scale) clamped to 0..255 equals (S >> k) clamped to
// 0..255 for every integer S: the multiply is exact, and where the shift
// (which rounds down) and trunc (which rounds toward zero) differ, S is
// negative and both clamp to 0. Step 10 uses the shift.
int scale_shift(float scale);

// The filter's weights laid out for dp4a, which multiplies the four bytes of
// one 32-bit word by four signed bytes and adds the four products (step 10).
// Step 10 packs pixels two ways:
//  * a column word: the pixels of one column in four consecutive rows, byte j
//    from row y-2+j. Filter rows 0..3 of output pixel (x, y) are then five
//    dp4a, one per column x-2 .. x+2, each with columns[dx] (dx = 0..4): the
//    weights of rows 0..3 in column dx, byte j from row j.
//  * a row's own words, for filter row 4: four output pixels x..x+3 of one
//    row need the input bytes x-2..x+5, which lie in three aligned words,
//    A = bytes x-4..x-1, B = x..x+3, C = x+4..x+7. Output pixel x+k is then
//        dp4a(B or C, last_row[2k+1], dp4a(A or B, last_row[2k], acc))
//    (A and B for k = 0, 1; B and C for k = 2, 3), with row 4's five weights
//    at the byte positions their pixels have in those words and zeros
//    elsewhere.
// 5 + 2 = 7 dp4a per pixel for its 25 products. Throws course::Error if a
// weight does not fit a signed byte.
struct PackedFilter {
    int columns[kFilterSize];  // [dx]: weights (0, dx) .. (3, dx), one signed byte each
    int last_row[8];           // [2k]: with A (k = 0, 1) or B (k = 2, 3); [2k+1]: with B (k = 0, 1) or C (k = 2, 3)
};
PackedFilter pack_for_dp4a(const Filter& filter);

}  // namespace convolution
