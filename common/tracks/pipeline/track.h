// The image pipeline track's machinery: the images on the GPU, the CPU
// reference, the copy and NPP rungs and the ladder. The rules and what a
// step's kernel.cu needs are in tracks/pipeline/kernels.h.
#pragma once

#include "course/buffers.h"
#include "course/byte_image.h"
#include "course/image.h"
#include "course/runner.h"
#include "course/targets.h"
#include "course/track.h"
#include "tracks/pipeline/kernels.h"

#include <cuda_runtime.h>

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace pipeline {

struct Step {
    int number;
    const char* title;
    Launcher launch;
};

// --- The CPU reference, stage by stage (tracks/pipeline/kernels.h's rules) ----

// Rule 1 on every pixel of `rgb` (3 channels): width x height greys.
std::vector<std::uint8_t> grey_image(const course::Image& rgb);
// Rule 2 on a width x height grey image, every pixel, the border clamped.
std::vector<std::uint8_t> blur_image(const std::vector<std::uint8_t>& grey, int width, int height);
// Rule 3 on a width x height blurred image, every pixel, the border clamped.
std::vector<std::uint8_t> edge_image(const std::vector<std::uint8_t>& blurred, int width, int height);
// The three in a row: the edge image every step must produce.
std::vector<std::uint8_t> reference(const course::Image& rgb);

// --- The problem: images on the GPU, the reference on the CPU ----------------

// Input sets (course/runner.h): use_inputs(set) writes set `set` into the
// same RGB buffer and makes check() compare with its reference. Set 0 is the
// image given to the constructor, the others course::input_set_image of it;
// each set's pixels and reference are computed the first time it is used
// and kept.
class Problem {
public:
    // Uploads `rgb` (3 channels) and computes the CPU reference. The RGB rows
    // lie rgb_pitch bytes apart and the edge image's rows `pitch` bytes
    // apart (0: the width in bytes rounded up to 128, rows on cache lines).
    Problem(const course::Image& rgb, int rgb_pitch = 0, int pitch = 0);

    int width() const { return out_.width(); }
    int height() const { return out_.height(); }
    int rgb_pitch() const { return rgb_.pitch(); }
    int pitch() const { return out_.pitch(); }
    // Bytes one run must move at least: 3 read and 1 written per pixel.
    double bytes_moved() const { return 4.0 * width() * height(); }

    // The images, sizes and scratch images of this problem.
    Params params();
    // How the harness drives `launch` with `params`.
    course::KernelRun run(Launcher launch, const Params& params);

    // Writes input set `set` into the RGB image (the pixels; the row padding
    // keeps its fixed pattern) and makes check() and expected() that set's.
    // The scratch images are left as they are. Waits for the GPU before and
    // after the upload.
    void use_inputs(int set, cudaStream_t stream);

    // Fills the whole edge buffer with `pattern` and remembers it.
    void poison(std::uint8_t pattern, cudaStream_t stream);
    // Every edge pixel exactly against the reference, and nothing outside
    // the image written.
    course::CheckResult check() const;

    // The ceiling: a device-to-device copy of 2 bytes per pixel (read 2,
    // write 2: the 4 bytes per pixel a step must move), checked.
    course::KernelRun copy_run();

    const std::vector<std::uint8_t>& expected() const { return sets_.at(current_).expected; }
    const std::uint8_t* rgb() const { return rgb_.data(); }
    std::uint8_t* out() { return out_.data(); }
    std::uint8_t* scratch_grey() { return grey_.data(); }
    course::Image output() const;  // downloads the edge image

private:
    struct InputSet {
        course::Image rgb;
        std::vector<std::uint8_t> expected;
    };
    const InputSet& input_set(int set);

    std::map<int, InputSet> sets_;
    int current_ = 0;
    course::DeviceImage rgb_, out_, grey_, blurred_;
    course::DeviceBuffer<std::uint8_t> copy_;
    std::uint8_t last_poison_ = 0;
};

// --- The ladder -----------------------------------------------------------------

// The track's own option: --pitch-pad.
std::vector<course::OptionSpec> track_options();

struct Settings {
    int width = 2048, height = 2048;  // from --size, or from the --input image
    std::string input;                // --input, empty: the synthetic image
    int pitch_pad = 0;                // --pitch-pad, added to both pitches
};
// Parses --size, --input and --pitch-pad; throws UsageError.
Settings settings_from(const course::Options& options);

// Runs `steps` (the student's row marked) on the image the options ask for,
// each checked and timed. With `references`, then the copy and NPP's four
// calls (where this build has NPP), the library rung. The copy is measured
// either way: its bandwidth is the ladder's ceiling, and a step faster than
// that (course::enforce_ceiling) fails.
course::Ladder measure_ladder(const std::vector<Step>& steps, const course::TrackRun& run, bool references = true);

// The track's ladder: measure_ladder with the references.
std::vector<course::Ladder> run_ladder(const std::vector<Step>& steps, const course::TrackRun& run);

// The track with the steps this program was built with (tracks/pipeline/steps.cpp).
course::Track track();

// The track's performance targets at 8192x8192, in one ladder run: step 09 (the last) at least 70% of the bandwidth of a
// device-to-device copy of the same bytes and 5x as fast as NPP's four calls.
// The ladder notes them (course::note_targets); course-targets checks them
// (tracks/pipeline/targets.cpp).
inline constexpr course::CopyAndLibraryTargets kTargets{9, 0.70, 5.0, "NPP's calls"};
void targets(course::Targets& targets);

// True when this build has NPP.
bool have_npp();

}  // namespace pipeline
