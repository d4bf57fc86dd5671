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
// reference, computed by the caller).
class ByteImages {
public:
    // `track` names the track in error messages. `pitch` 0: the default
    // pitch. Throws course::Error for an empty image, a pitch narrower than
    // the width, or an `expected` of another size.
    ByteImages(const char* track, const Image& image, std::vector<std::uint8_t> expected, int pitch);

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

    // Fills the whole output buffer with `pattern` and remembers it.
    void poison(std::uint8_t pattern, cudaStream_t stream);
    // Copies the frame `width` pixels wide around the image from the input
    // to the output (for a library that filters the interior only).
    void copy_frame(int width, cudaStream_t stream);
    // Compares the output with the expected image (or with `expected`),
    // every pixel exactly; then checks that every byte of the buffer outside
    // the image (row padding, spare bytes) still holds the last poison.
    CheckResult check() const { return check(expected_); }
    CheckResult check(const std::vector<std::uint8_t>& expected) const;

    // The image copied device to device, checked against the input: the
    // bandwidth ceiling for a filter that reads and writes every pixel once.
    KernelRun copy_run();
    // The ladder's "copy" row: copy_run() measured.
    Rung copy_rung(Harness& harness);

    const std::vector<std::uint8_t>& input_pixels() const { return input_; }
    const std::vector<std::uint8_t>& expected() const { return expected_; }
    const std::uint8_t* in() const { return in_.data(); }
    std::uint8_t* out() { return out_.data(); }
    Image output() const;  // downloads the output image

private:
    std::string track_;
    std::vector<std::uint8_t> input_, expected_;
    DeviceImage in_, out_;
    std::optional<DeviceImage> texture_copy_;
    std::uint8_t last_poison_ = 0;
};

}  // namespace course
