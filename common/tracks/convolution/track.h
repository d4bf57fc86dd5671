// The convolution track's machinery: the images on the GPU, the CPU
// reference, the copy and NPP rungs and the ladder. The filter and what a
// step's kernel.cu needs are in tracks/convolution/kernels.h.
#pragma once

#include "course/byte_image.h"
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

// A test picture for the grading tests: course::speckled_image (black and
// white pixels sprinkled in, so that the clamp is hit at both ends).
inline course::Image test_image(int width, int height, std::uint64_t seed) {
    return course::speckled_image(width, height, seed);
}

// The images on the GPU (course/byte_image.h): rows 128-byte aligned by
// default, guard bytes around them that the check looks at.
using course::default_pitch;
using course::DeviceImage;

class Problem : public course::ByteImages {
public:
    // Uploads `image` (1 channel) with rows `pitch` bytes apart (0: the
    // default pitch) and computes the CPU reference for `filter`.
    explicit Problem(const course::Image& image, int pitch = 0, const Filter& filter = kFilter);

    // The images, sizes and filter; the default block; no texture.
    Params params() const;

    // How the harness drives `launch` with `params` (which must point at
    // this problem's images, or at an image of the same size and pitch).
    course::KernelRun run(Launcher launch, const Params& params);

    // Copies the 2-pixel frame from the input to the output (the NPP rung's
    // untimed preparation: NPP filters the interior only).
    void copy_frame(cudaStream_t stream) { ByteImages::copy_frame(kRadius, stream); }
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
// nppiFilter_8u_C1R (where this build has NPP), the library rung. The copy
// is measured either way: its bandwidth is the ladder's ceiling, and a step
// faster than that (course::enforce_ceiling) fails.
Measured measure_ladder(const std::vector<Step>& steps, const course::TrackRun& run, bool references = true);

// The track's ladder: measure_ladder with the references.
std::vector<course::Ladder> run_ladder(const std::vector<Step>& steps, const course::TrackRun& run);

// The track with the steps this program was built with (tracks/convolution/steps.cpp).
course::Track track();

// The track's performance targets at 8192x8192, in one ladder run: step 10 (the last) at least 50% of a device-to-device
// copy's bandwidth and 3x as fast as nppiFilter_8u_C1R.
// The ladder notes them (course::note_targets); course-targets checks them
// (tracks/convolution/targets.cpp).
inline constexpr course::CopyAndLibraryTargets kTargets{10, 0.50, 3.0, "NPP"};
void targets(course::Targets& targets);

// True when this build has NPP (Meson found nppif and nppc).
bool have_npp();

}  // namespace convolution
