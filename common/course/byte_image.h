// 8-bit grey images on the GPU, for the tracks that filter one into another
// of the same size (convolution, Sobel): the pitched buffers with guard bytes
// around them, the texture that reads the input, the exact check that also
// looks outside the image, and the device-to-device copy rung.
#pragma once

#include "course/buffers.h"
#include "course/compare.h"
#include "course/image.h"
#include "course/options.h"
#include "course/runner.h"
#include "course/texture.h"

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace course {

// The default pitch: the width rounded up to 128 bytes, so every row starts
// on a cache line (a multiple of every texture pitch alignment too).
int default_pitch(int width);

// A test picture for the grading tests: synthetic_image (`channels`
// channels), with a sprinkle of black and white bytes so that a clamp to
// 0..255 is hit at both ends.
Image speckled_image(int width, int height, std::uint64_t seed, int channels = 1);

// Input set `set` (course/runner.h, KernelRun::use_inputs) of an image
// problem whose own input, set 0, is `image`: set 0 is `image` itself; any
// other set is the same picture (any number of channels) with the low four
// bits of every byte flipped by a seeded mask from 1 to 15, so that every
// byte changes by at most 15 while the picture (its edges, its flat areas,
// its histogram, roughly) stays what it was: a user's photo stays a photo,
// and a step's time on it stays its time on the photo.
Image input_set_image(const Image& image, int set);

// --pitch-pad N: bytes added to every row's pitch, 0 to 4096 (throws
// UsageError otherwise). The tracks on 8-bit images use it to misalign rows.
int pitch_pad_option(const Options& options);

// True when `in`, `out` and every row start on a `bytes`-byte boundary
// (both pointers and the pitch are multiples of `bytes`): only then may a
// kernel load and store whole `bytes`-byte words at word-aligned x.
bool rows_aligned(const void* in, const void* out, int pitch, int bytes);

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
    // The same as a 1-channel (grey) Image.
    Image download_image() const;

private:
    int width_, height_, pitch_;
    DeviceBuffer<std::uint8_t> storage_;
    std::size_t offset_ = 0;
};

// Compares `image` with `expected` (tightly packed), every pixel exactly;
// then checks that every byte of its buffer outside the image (row padding,
// spare bytes) still holds `poison`, the pattern it was filled with.
CheckResult check_device_image(const DeviceImage& image, const std::vector<std::uint8_t>& expected,
                               std::uint8_t poison);

// A grey input image and an output image of the same size and pitch on the
// GPU, with the output a correct kernel must write (the track's CPU
// reference, which the caller gives).
//
// Input sets (course/runner.h): use_inputs(set) writes set `set` into the
// same input buffer (and into the texture's copy of it, where there is one)
// and makes check() compare with that set's reference. Set 0 is the image
// given to the constructor; the others are input_set_image(image, set). Each
// set's pixels and reference are computed the first time it is used and
// kept: every row of a ladder uses the same sets.
class ByteImages {
public:
    // The output a correct kernel writes for an input image (tightly packed).
    using Reference = std::function<std::vector<std::uint8_t>(const Image&)>;

    // `track` names the track in error messages. `pitch` 0: the default
    // pitch. Throws course::Error for an empty image, a pitch narrower than
    // the width, or a reference of another size. Set 0 is in the input
    // buffer when it returns.
    ByteImages(const char* track, const Image& image, Reference reference, int pitch);

    int width() const { return in_.width(); }
    int height() const { return in_.height(); }
    int pitch() const { return in_.pitch(); }
    // Bytes one run must move at least: every pixel read once, written once.
    double bytes_moved() const { return 2.0 * width() * height(); }

    // The input bound to a texture object read as `desc` says. The texture
    // unit reads pitched memory only if the rows start on the device's
    // texture pitch alignment and the image on its texture alignment; if the
    // pitch is not such a multiple, the input is copied once (not timed)
    // into a buffer whose pitch is, and the texture reads the copy.
    TextureObject texture(const cudaTextureDesc& desc);
    bool texture_reads_a_copy() const { return texture_copy_.has_value(); }

    // Writes input set `set` into the input buffer (the pixels; the row
    // padding keeps its fixed pattern) and into the texture's copy, and makes
    // check(), input_pixels() and expected() those of that set. Waits for the
    // GPU first (nothing may still read the input) and after (the upload
    // is done before the next launch on any stream).
    void use_inputs(int set, cudaStream_t stream);
    int input_set() const { return current_; }

    // Fills the whole output buffer with `pattern` and remembers it.
    void poison(std::uint8_t pattern, cudaStream_t stream);
    // Copies the frame `width` pixels wide around the image from the input
    // to the output (for a library that filters the interior only).
    void copy_frame(int width, cudaStream_t stream);
    // Compares the output with the expected image (or with `expected`),
    // every pixel exactly; then checks that every byte of the buffer outside
    // the image (row padding, spare bytes) still holds the last poison.
    CheckResult check() const { return check(expected()); }
    CheckResult check(const std::vector<std::uint8_t>& expected) const;

    // The image copied device to device, checked against the input (with
    // the same input sets as the steps): the bandwidth ceiling for a filter
    // that reads and writes every pixel once.
    KernelRun copy_run();
    // The ladder's "copy" row: copy_run() measured.
    Rung copy_rung(Harness& harness);
    // The ceiling of a filter on these images (course::set_ceiling), in
    // GB/s of the filter's bytes: the copy row's throughput; where the rows
    // are padded, the larger of it and that of one cudaMemcpyAsync of the
    // whole pitched image, padding included. The copy row of padded rows is
    // cudaMemcpy2DAsync, slower than the 1-D copy of the same pixels (the
    // pitch ladders of lessons/convolution/README.md): a filter may beat it
    // without beating the memory. The 1-D copy moves at least the pixels'
    // bytes, so its throughput counted in them is no more than the memory's.
    // It is timed as a row is, and not checked (it writes the output's
    // padding); none in --profile's run under ncu.
    void set_copy_ceiling(Ladder& ladder, const Rung& copy_row, Harness& harness);

    // The current input set's pixels and reference (tightly packed).
    const std::vector<std::uint8_t>& input_pixels() const { return current_set().input.pixels; }
    const std::vector<std::uint8_t>& expected() const { return current_set().expected; }
    const std::uint8_t* in() const { return in_.data(); }
    std::uint8_t* out() { return out_.data(); }
    Image output() const;  // downloads the output image

private:
    struct InputSet {
        Image input;
        std::vector<std::uint8_t> expected;
    };
    const InputSet& input_set(int set);
    const InputSet& current_set() const { return sets_.at(current_); }

    std::string track_;
    Reference reference_;
    std::map<int, InputSet> sets_;
    int current_ = 0;
    DeviceImage in_, out_;
    std::optional<DeviceImage> texture_copy_;
    std::uint8_t last_poison_ = 0;
};

}  // namespace course
