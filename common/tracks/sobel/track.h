// The Sobel track's machinery: the images on the GPU, the CPU reference, the
// copy and NPP rungs and the ladder. The rule and what a step's kernel.cu
// needs are in tracks/sobel/kernels.h.
#pragma once

#include "course/byte_image.h"
#include "course/image.h"
#include "course/runner.h"
#include "course/targets.h"
#include "course/track.h"
#include "tracks/sobel/kernels.h"

#include <cuda_runtime.h>

#include <cstdint>
#include <string>
#include <vector>

namespace sobel {

struct Step {
    int number;
    const char* title;
    Launcher launch;
    TextureDescriber texture = nullptr;  // only the texture steps (03, 04) have one
};

// --- The problem: images on the GPU, the reference on the CPU ----------------

// The CPU reference: the edge magnitude of `image` (grey), every pixel, as
// the head of tracks/sobel/kernels.h says.
std::vector<std::uint8_t> reference(const course::Image& image);

class Problem : public course::ByteImages {
public:
    // Uploads `image` (1 channel) with rows `pitch` bytes apart (0: rows on
    // 128-byte boundaries) and computes the CPU reference.
    explicit Problem(const course::Image& image, int pitch = 0);

    // The images and sizes; no texture.
    Params params() const;

    // How the harness drives `launch` with `params` (which must point at
    // this problem's images, or at an image of the same size and pitch).
    course::KernelRun run(Launcher launch, const Params& params);
};

// --- The ladder -----------------------------------------------------------------

// The track's own option: --pitch-pad.
std::vector<course::OptionSpec> track_options();

// What the command line asks for.
struct Settings {
    int width = 2048, height = 2048;  // from --size, or from the --input image
    std::string input;                // --input, empty: the synthetic image
    int pitch_pad = 0;                // --pitch-pad
};
// Parses --size, --input and --pitch-pad; throws UsageError.
Settings settings_from(const course::Options& options);

// Runs `steps` (the student's row marked) on the image the options ask for,
// each checked and timed. With `references`, then the device-to-device copy
// of the image and NPP's Sobel (where this build has NPP), the library rung.
// The copy is measured either way: its bandwidth is the ladder's ceiling,
// and a step faster than that (course::enforce_ceiling) fails.
course::Ladder measure_ladder(const std::vector<Step>& steps, const course::TrackRun& run, bool references = true);

// The track's ladder: measure_ladder with the references.
std::vector<course::Ladder> run_ladder(const std::vector<Step>& steps, const course::TrackRun& run);

// The track with the steps this program was built with (tracks/sobel/steps.cpp).
course::Track track();

// The track's performance targets at 8192x8192, in one ladder run: step 05 (the last) at least 80% of a device-to-device
// copy's bandwidth and 2x as fast as NPP's Sobel magnitude.
// The ladder notes them (course::note_targets); course-targets checks them
// (tracks/sobel/targets.cpp).
inline constexpr course::CopyAndLibraryTargets kTargets{5, 0.80, 2.0, "NPP"};
void targets(course::Targets& targets);

// True when this build has NPP (Meson found nppif and nppc).
bool have_npp();

}  // namespace sobel
