// The convolution track's machinery: the images on the GPU, the CPU
// reference, the copy and NPP rungs and the ladder. The filter and what a
// step's kernel.cu needs are in tracks/convolution/kernels.h.
#pragma once

#include "course/compare.h"
#include "course/image.h"
#include "course/runner.h"
#include "course/targets.h"
#include "course/texture.h"
#include "course/track.h"
#include "tracks/convolution/kernels.h"

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace convolution {

struct Step {
    int number;
    const char* title;
    Launcher launch;
    TextureDescriber texture = nullptr;  // only the texture steps (02-05) have one
};

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
    course::Image output() const;  // downloads the output image

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
    int width = 2048, height = 2048;  // from --size, or from the --input image
    std::string input;                // --input, empty: the synthetic image
    dim3 block{16, 16};               // --block
    int pitch_pad = 0;                // --pitch-pad
};
// Parses --size, --input, --block and --pitch-pad; throws UsageError.
Settings settings_from(const course::Options& options);

// The steps' rows, and each step's memory-only time (none where the step
// failed its check).
struct Measured {
    course::Ladder ladder;
    std::vector<std::optional<course::TimingStats>> memory_only;  // one per step
};

// Runs `steps` (the student's row marked) on the image the options ask for:
// each is checked, timed, and timed again as its memory-only variant. With
// `references`, then the device-to-device copy of the image and NPP's
// nppiFilter_8u_C1R (where this build has NPP), the library rung.
Measured measure_ladder(const std::vector<Step>& steps, const course::TrackRun& run, bool references = true);

// The track's ladder: measure_ladder with the references.
std::vector<course::Ladder> run_ladder(const std::vector<Step>& steps, const course::TrackRun& run);

// The track with the steps this program was built with (tracks/convolution/steps.cpp).
course::Track track();

// The track's performance targets (tracks/convolution/targets.cpp, run by course-targets).
void targets(course::Targets& targets);

// True when this build has NPP (Meson found nppif and nppc).
bool have_npp();

}  // namespace convolution
