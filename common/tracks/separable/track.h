// The separable track's machinery: the image on the GPU, the CPU reference and
// its tolerance, the copy and NPP rungs, the ladder and the performance
// targets. What a step's
// kernel.cu needs is in tracks/separable/kernels.h.
//
// Checking. Each output is a sum of taps products of row-pass outputs, each
// itself a sum of taps products, all rounded in FP32; the reference computes
// both passes in double precision from the same float weights. Each rounding
// of a partial sum is off by at most 2^-24 of it, and every partial sum is
// bounded by S * M (row pass) or S^2 * M (column pass), where S = sum |w[k]|
// and M = max |in|. Over the 2 * taps additions the error is therefore at most
// about 2 * taps * 2^-24 * S^2 * M, and the check allows twice that:
//
//     |got - want| <= 4 * taps * 2^-24 * S^2 * M
//
// For the track's normalised filters (S = 1) on pixels in [0, 1] that is
// 1.7e-6 at 7 taps, 1.5e-5 at 63. A dropped tap, a filter applied mirrored or
// an edge not clamped is off by far more: the grading tests use lopsided
// filters and images with sharp edges. NaN and Inf never pass.
#pragma once

#include "course/compare.h"
#include "course/image.h"
#include "course/runner.h"
#include "course/targets.h"
#include "course/track.h"
#include "tracks/separable/kernels.h"

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace separable {

struct Step {
    int number;
    const char* title;
    Launcher launch;
};

// A step of the transfers lesson (08): the whole job, host to host.
struct TransferStep {
    int number;
    const char* title;
    TransferLauncher launch;
};

inline constexpr int kDefaultTaps = 7;
inline constexpr int kDefaultSide = 2048;
inline constexpr int kMaxSide = 32768;

// The track's filter of `taps` taps (odd, 1 to kMaxTaps): the triangle
// 1 2 .. r+1 .. 2 1, divided by its sum (r + 1)^2. Seven taps give the
// 1 2 3 4 3 2 1 of the 7x7 Gaussian in the GTC 2015 talk. Throws
// course::UsageError for another length.
std::vector<float> triangle_filter(int taps);

// Throws course::UsageError naming `what` unless taps is odd and 1..kMaxTaps.
void require_taps(int taps, const std::string& what);

// The CPU reference, both passes in double precision (on every CPU core),
// rounded to float at the end: `image` is width x height floats.
std::vector<float> reference(const std::vector<float>& image, int width, int height, const std::vector<float>& weights);

// The tolerance of the rule above, for these weights and this image.
course::Tolerance tolerance(const std::vector<float>& weights, const std::vector<float>& image);

// An 8-bit grey image as floats in [0, 1], and back (rounded, clamped).
std::vector<float> to_floats(const course::Image& image);
course::Image to_image(const std::vector<float>& pixels, int width, int height);

// Input set `set` (course/runner.h, KernelRun::use_inputs) of a problem
// whose own image, set 0, is `image`: set 0 is `image`; any other set is
// 7/8 of each pixel plus a seeded amount from 0 to 1/8, so that every pixel
// changes and the picture stays what it was (pixels in [0, 1] stay there).
std::vector<float> input_set_pixels(const std::vector<float>& image, int set);

// The image, the filter and the buffers on the GPU, and the reference.
//
// Input sets (course/runner.h): use_inputs(set) writes set `set` into the
// same input buffer and makes check() compare with its reference; set 0 is
// the image given to the constructor, the others input_set_pixels of it,
// each computed (with its reference and tolerance) the first time it is
// used and kept. The filter is the same in every set.
class Problem {
public:
    Problem(std::vector<float> image, int width, int height, std::vector<float> weights);

    int width() const { return width_; }
    int height() const { return height_; }
    int taps() const { return static_cast<int>(weights_.size()); }
    std::size_t pixels() const { return static_cast<std::size_t>(width_) * static_cast<std::size_t>(height_); }
    // Bytes a run must move at least: the image read once, written once.
    double bytes_moved() const { return 8.0 * static_cast<double>(pixels()); }

    Params params();
    // How the harness drives `launch` on this problem.
    course::KernelRun run(Launcher launch);
    // Writes input set `set` into the input image on the GPU and makes
    // check() compare with its reference. Waits for the GPU before and after.
    void use_inputs(int set, cudaStream_t stream);
    // Makes check(), check_output() and input() those of set `set` without
    // touching the GPU: the transfers lesson writes the set into host memory
    // and the job itself uploads it.
    void select_inputs(int set);
    // Fills every byte of the output with `pattern`.
    void poison(std::uint8_t pattern, cudaStream_t stream) { out_.fill_bytes(pattern, stream); }
    // Compares the output with the reference, every pixel.
    course::CheckResult check() const;
    // The same for an output image in host memory (pixels() floats).
    course::CheckResult check_output(const float* got) const;

    const float* in() const { return in_.data(); }
    float* writable_in() { return in_.data(); }  // the transfers lesson uploads into it
    float* out() { return out_.data(); }
    float* tmp() { return tmp_.data(); }
    const float* device_weights() const { return device_weights_.data(); }
    const std::vector<float>& weights() const { return weights_; }
    const std::vector<float>& input() const { return current_set().input; }  // the current set's
    std::vector<float> download_output() const { return out_.download(); }
    course::Image output() const;  // the output, as an 8-bit image

private:
    struct InputSet {
        std::vector<float> input, expected;
        course::Tolerance tolerance;
    };
    const InputSet& input_set(int set);
    const InputSet& current_set() const { return sets_.at(current_); }

    int width_, height_;
    std::vector<float> weights_;
    std::map<int, InputSet> sets_;
    int current_ = 0;
    course::DeviceBuffer<float> in_, out_, tmp_, device_weights_;
};

inline constexpr int kDefaultChunks = 16;
inline constexpr int kDefaultStreams = 3;
inline constexpr int kMaxChunks = 1024;
inline constexpr int kMaxStreams = 32;

// The track's own options: --taps, and --chunks and --streams for the
// transfers lesson.
std::vector<course::OptionSpec> track_options();

struct Settings {
    int width = kDefaultSide, height = kDefaultSide;  // from --size, or from the --input image
    std::string input;                                // --input; empty: the synthetic image
    int taps = kDefaultTaps;                          // --taps
    int chunks = kDefaultChunks;                      // --chunks (at most the image's height is used)
    int streams = kDefaultStreams;                    // --streams
};
// Parses --size, --input, --output, --taps, --chunks and --streams; throws
// UsageError.
Settings settings_from(const course::Options& options);

// The ladders' problem: the --input image (or the synthetic one at --size)
// and the --taps triangle filter, after checking that the GPU has room for
// three images.
Problem ladder_problem(const Settings& settings, const course::TrackRun& run);

// The ladder of `steps` (the student's row marked), then the device-to-device
// copy of the image and NPP's row and column filters (where this build has
// NPP), with a "% of copy" column.
std::vector<course::Ladder> run_ladder(const std::vector<Step>& steps, const course::TrackRun& run);

// The transfers ladder (tracks/separable/transfers.cpp): the whole job, host
// to host, as a program runs it. Rows: the upload, `filter` and the download
// in turn from pageable host memory, the same from pinned memory, each of
// `steps` (pinned, in --chunks chunks on --streams streams), and last the
// link alone (the image up and down at once, no filter). Time is end to
// end, on the host's clock; GB/s is the bytes over the link (the image up and
// back down) over that time. Under the table: the link's measured peak and
// each step's timeline, drawn from its chunks' events.
course::Ladder transfer_ladder(const std::vector<TransferStep>& steps, Launcher filter, const course::TrackRun& run);

// When each stage of each chunk ran, in ms from chunk 0's start, read from
// a job's events after it finished. Throws course::Error naming the chunk and
// the event when one was never recorded.
struct ChunkTimes {
    double start, uploaded, filtered, downloaded;
};
std::vector<ChunkTimes> chunk_times(const ChunkEvents* events, int chunks);

// One run of `launch` on `problem` as the transfers ladder runs it (pinned
// images, min(chunks, height) chunks on `streams` streams), the host output
// poisoned first; returns the check of the host output and, with `times`,
// the chunks' times.
course::CheckResult check_transfers(Problem& problem, TransferLauncher launch, int chunks, int streams,
                                    course::Harness& harness, std::vector<ChunkTimes>* times = nullptr);

// The track with the steps this program was built with (tracks/separable/steps.cpp).
course::Track track();

// The track's performance targets (tracks/separable/targets.cpp, run by course-targets).
void targets(course::Targets& targets);

}  // namespace separable
