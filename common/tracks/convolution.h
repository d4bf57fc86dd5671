// The convolution track, after J. Stam's "Convolution Soup: A case study in
// CUDA optimization" (NVIDIA GTC, 2009): a general 5x5 filter on an 8-bit
// grey image, from naive global memory to 16-byte, bank-conflict-free,
// unrolled.
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
// convolution.cpp.
#pragma once

#include "course/compare.h"
#include "course/kernel_copy.h"
#include "course/image.h"
#include "course/runner.h"
#include "course/texture.h"
#include "course/track.h"

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace convolution {

inline constexpr int kFilterSize = 5;
inline constexpr int kRadius = 2;   // pixels of apron (and of frame) on each side
inline constexpr int kTaps = kFilterSize * kFilterSize;

struct Filter {
    int weights[kTaps];   // row by row: weights[(dy + 2) * 5 + (dx + 2)] multiplies in(x + dx, y + dy)
    float scale;          // applied to the weighted sum, see scale_and_clamp
};

// The track's filter: a sharpening filter (the weights sum to 64, so a flat
// area keeps its value), lopsided on purpose. It is not separable, so it
// cannot be done as a row pass and a column pass; it is not symmetric under
// a half turn, so a kernel that applies it upside down fails the check; and
// its negative weights push dark and bright edges past 0 and 255, so the
// clamp is exercised. Every weight fits a signed byte (step 10 packs them).
// scale = 1/64 is a power of two: float(S) * scale is then exact, and equals
// NPP's integer division by 64.
inline constexpr Filter kFilter = {{
    -1, -2,  0,  1,  0,
    -2,  3,  4, -1,  1,
     0,  5, 45,  6, -2,
     1, -1,  7,  2, -3,
     0,  2, -2,  1,  0,
}, 1.0f / 64.0f};

// The rule that turns a weighted sum into a pixel, the one every kernel and
// the CPU reference use: one single-precision multiply, truncated toward
// zero, clamped to 0..255.
__host__ __device__ inline std::uint8_t scale_and_clamp(int sum, float scale) {
    const int scaled = static_cast<int>(static_cast<float>(sum) * scale);   // the cast truncates
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
    const std::uint8_t* in = nullptr;   // width x height pixels, rows `pitch` bytes apart
    std::uint8_t* out = nullptr;        // the same size and pitch
    int width = 0;
    int height = 0;
    int pitch = 0;                      // bytes from one row's start to the next (>= width), in and out alike
    Filter filter = kFilter;
    dim3 block{16, 16};                 // threads per block: --block, 16x16 unless the user asks otherwise
    cudaTextureObject_t texture = 0;    // steps 02-05: the input as a texture, read as the step's texture_desc()
                                        // says (the track creates it once, outside the timed runs); 0 otherwise
    bool memory_only = false;           // the "memory only" variant: the same loads and stores, no weighted sum
};

// Every step's launcher: enqueues the step's kernel on `stream` for
// `params` (the full filter, or the memory-only variant when
// params.memory_only), and checks the launch (CUDA_CHECK_LAUNCH). It must
// write every pixel of the image and nothing outside it (not the padding at
// the end of a row).
using Launcher = void (*)(const Params& params, cudaStream_t stream);
// The texture steps also say how their texture reads (cudaTextureDesc): the
// track binds the input to a texture object made with it.
using TextureDescriber = cudaTextureDesc (*)();

// The launchers, one per step (inline namespace: see course/kernel_copy.h).
inline namespace COURSE_KERNEL_COPY {
void step01_naive_global(const Params& params, cudaStream_t stream);
void step02_texture(const Params& params, cudaStream_t stream);
cudaTextureDesc step02_texture_desc();
void step03_texture_4px(const Params& params, cudaStream_t stream);
cudaTextureDesc step03_texture_desc();
void step04_texture_shared(const Params& params, cudaStream_t stream);
cudaTextureDesc step04_texture_desc();
void step05_float_texture(const Params& params, cudaStream_t stream);
cudaTextureDesc step05_texture_desc();
void step06_global_shared(const Params& params, cudaStream_t stream);
void step07_strict_coalescing(const Params& params, cudaStream_t stream);
void step08_16byte_loads(const Params& params, cudaStream_t stream);
void step09_bank_conflicts(const Params& params, cudaStream_t stream);
void step10_unrolled(const Params& params, cudaStream_t stream);
}  // inline namespace COURSE_KERNEL_COPY

struct Step {
    int number;
    const char* title;
    Launcher launch;
    TextureDescriber texture = nullptr;   // only the texture steps (02-05) have one
};

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
// aligned; and when the block is narrower than a warp, so that one warp
// reads 32 / block_width rows at once, each row starts block_width banks
// after the one before: the rows a warp reads together fall on different
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
    int columns[kFilterSize];   // [dx]: weights (0, dx) .. (3, dx), one signed byte each
    int last_row[8];            // [2k]: with A (k = 0, 1) or B (k = 2, 3); [2k+1]: with B (k = 0, 1) or C (k = 2, 3)
};
PackedFilter pack_for_dp4a(const Filter& filter);

// --- The problem: images on the GPU, the reference on the CPU ----------------

// The CPU reference: `image` (grey) filtered as the head of this file says.
std::vector<std::uint8_t> reference(const course::Image& image, const Filter& filter);

// A test picture for the grading tests: course::synthetic_image, with a
// sprinkle of black and white pixels so that the clamp is hit at both ends.
course::Image test_image(int width, int height, std::uint64_t seed);

// The default pitch: the width rounded up to 128 bytes, so every row starts
// on a cache line (a multiple of every texture pitch alignment too).
int default_pitch(int width);

// An image in GPU memory: rows `pitch` bytes apart, starting on a 512-byte
// boundary, with spare bytes before and after (at least 512 each) that
// belong to no pixel, so that a kernel writing past the image writes into
// memory the check can see.
class DeviceImage {
public:
    DeviceImage(int width, int height, int pitch);
    std::uint8_t* data() { return storage_.data() + offset_; }
    const std::uint8_t* data() const { return storage_.data() + offset_; }
    int width() const { return width_; }
    int height() const { return height_; }
    int pitch() const { return pitch_; }
    // Copies a tightly packed width x height image in.
    void upload(const std::vector<std::uint8_t>& pixels);
    // Every byte of the buffer, padding and spare bytes included.
    void fill(std::uint8_t pattern, cudaStream_t stream);
    // The whole buffer, and where the image starts in it.
    std::vector<std::uint8_t> download_all() const { return storage_.download(); }
    std::size_t offset() const { return offset_; }
    // The image alone, tightly packed.
    std::vector<std::uint8_t> download() const;

private:
    int width_, height_, pitch_;
    course::DeviceBuffer<std::uint8_t> storage_;
    std::size_t offset_ = 0;
};

class Problem {
public:
    // Uploads `image` (1 channel) with rows `pitch` bytes apart (0: the
    // default pitch) and computes the CPU reference for `filter`.
    explicit Problem(const course::Image& image, int pitch = 0, const Filter& filter = kFilter);

    int width() const { return in_.width(); }
    int height() const { return in_.height(); }
    int pitch() const { return in_.pitch(); }
    // Bytes one run must move at least: every pixel read once, written once.
    double bytes_moved() const { return 2.0 * width() * height(); }

    // The images, sizes and filter; the default block; no texture.
    Params params() const;

    // The input bound to a texture object read as `desc` says. The texture
    // unit reads pitched memory only if the rows start on the device's
    // texture pitch alignment and the image on its texture alignment; if the
    // pitch is not such a multiple, the input is copied once (not timed)
    // into a buffer whose pitch is, and the texture reads the copy.
    course::TextureObject texture(const cudaTextureDesc& desc);
    bool texture_reads_a_copy() const { return texture_copy_.has_value(); }

    // How the harness drives `launch` with `params` (which must point at
    // this problem's images, or at an image of the same size and pitch).
    course::KernelRun run(Launcher launch, const Params& params);

    // Fills the whole output buffer with `pattern` and remembers it.
    void poison(std::uint8_t pattern, cudaStream_t stream);
    // Copies the 2-pixel frame from the input to the output (the NPP rung's
    // untimed preparation: NPP filters the interior only).
    void copy_frame(cudaStream_t stream);
    // Compares the output with the filtered reference (or with `expected`),
    // every pixel exactly; then checks that every byte of the buffer outside
    // the image (row padding, spare bytes) still holds the last poison.
    course::CheckResult check() const { return check(expected_); }
    course::CheckResult check(const std::vector<std::uint8_t>& expected) const;

    const std::vector<std::uint8_t>& input_pixels() const { return input_; }
    const std::vector<std::uint8_t>& expected() const { return expected_; }
    const std::uint8_t* in() const { return in_.data(); }
    std::uint8_t* out() { return out_.data(); }
    course::Image output() const;   // downloads the output image

private:
    std::vector<std::uint8_t> input_, expected_;
    DeviceImage in_, out_;
    std::optional<DeviceImage> texture_copy_;
    std::uint8_t last_poison_ = 0;
};

// --- The ladder -----------------------------------------------------------------

// The track's own options: --block and --pitch-pad.
std::vector<course::OptionSpec> track_options();

// What the command line asks for.
struct Settings {
    int width = 2048, height = 2048;   // from --size, or from the --input image
    std::string input;                 // --input, empty: the synthetic image
    dim3 block{16, 16};                // --block
    int pitch_pad = 0;                 // --pitch-pad
};
// Parses --size, --input, --block and --pitch-pad; throws UsageError.
Settings settings_from(const course::Options& options);

// The steps' rows, and each step's memory-only time (none where the step
// failed its check).
struct Measured {
    course::Ladder ladder;
    std::vector<std::optional<course::TimingStats>> memory_only;   // one per step
};

// Runs `steps` (the student's row marked) on the image the options ask for:
// each is checked, timed, and timed again as its memory-only variant. With
// `references`, then the device-to-device copy of the image and NPP's
// nppiFilter_8u_C1R (where this build has NPP), the library rung.
Measured measure_ladder(const std::vector<Step>& steps, const course::TrackRun& run, bool references = true);

// The track's ladder: measure_ladder with the references.
std::vector<course::Ladder> run_ladder(const std::vector<Step>& steps, const course::TrackRun& run);

// The track with the steps this program was built with (convolution_steps.cpp).
course::Track track();

// True when this build has NPP (Meson found nppif and nppc).
bool have_npp();

}  // namespace convolution
