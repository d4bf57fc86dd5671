#include "tracks/convolution/track.h"

#include "course/check.h"
#include "course/image_options.h"
#include "course/launch_helpers.h"
#include "course/options.h"
#include "course/random.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>

#ifdef COURSE_HAVE_NPP
#include "course/npp_context.h"

#include <nppi_filtering_functions.h>
#endif

namespace convolution {

namespace {

// Images are limited so that every offset a kernel computes fits an int
// (y * pitch + x < 2^31) and every grid fits the launch limits.
constexpr int kMaxSide = 32768;
constexpr int kMaxBlockSide = 64;
constexpr int kMaxBlockThreads = 1024;

// The filter applied on the CPU, pixel by pixel, with `finish` turning each
// weighted sum into a pixel; the frame copied.
template <typename Finish>
std::vector<std::uint8_t> filter_on_cpu(const std::vector<std::uint8_t>& in, int width, int height, const int* weights,
                                        Finish finish) {
    std::vector<std::uint8_t> out = in;
    for (int y = kRadius; y < height - kRadius; ++y) {
        for (int x = kRadius; x < width - kRadius; ++x) {
            int sum = 0;
            for (int dy = -kRadius; dy <= kRadius; ++dy) {
                const std::uint8_t* row = &in[static_cast<std::size_t>(y + dy) * width];
                for (int dx = -kRadius; dx <= kRadius; ++dx)
                    sum += weights[(dy + kRadius) * kFilterSize + dx + kRadius] * row[x + dx];
            }
            out[static_cast<std::size_t>(y) * width + x] = finish(sum);
        }
    }
    return out;
}

std::vector<std::uint8_t> grey_pixels(const course::Image& image) {
    if (image.channels != 1) throw course::Error("convolution: the image must have 1 channel (grey)");
    if (image.width <= 0 || image.height <= 0) throw course::Error("convolution: the image is empty");
    return image.pixels;
}

}  // namespace

// --- Helpers ------------------------------------------------------------------------

dim3 grid_for(const Params& params, int pixels_per_thread, int rows_per_thread) {
    return course::image_grid("convolution", params.width, params.height,
                              static_cast<int>(params.block.x) * pixels_per_thread,
                              static_cast<int>(params.block.y) * rows_per_thread);
}

bool rows_aligned(const Params& params, int bytes) {
    return course::rows_aligned(params.in, params.out, params.pitch, bytes);
}

int scale_shift(float scale) {
    for (int k = 0; k <= 24; ++k)
        if (scale == std::ldexp(1.0f, -k)) return k;
    return -1;
}

PackedFilter pack_for_dp4a(const Filter& filter) {
    for (const int weight : filter.weights)
        if (weight < -128 || weight > 127)
            throw course::Error("pack_for_dp4a: weight " + std::to_string(weight) + " does not fit a signed byte");
    const auto put = [](int& word, int byte, int weight) {
        word = static_cast<int>(static_cast<unsigned>(word) | (static_cast<unsigned>(weight) & 0xffu) << (8 * byte));
    };
    PackedFilter packed{};
    for (int dx = 0; dx < kFilterSize; ++dx)
        for (int row = 0; row < 4; ++row) put(packed.columns[dx], row, filter.weights[row * kFilterSize + dx]);
    constexpr int kLastRow = kFilterSize - 1;
    for (int k = 0; k < 4; ++k) {
        // The window of output pixel x+k is bytes x+k-2 .. x+k+2; in the 12
        // bytes A|B|C (A starts at x-4), tap t is byte k + 2 + t. The pair of
        // words output k uses starts at A for k = 0, 1 and at B for k = 2, 3.
        const int first = k < 2 ? 0 : 4;
        for (int t = 0; t < kFilterSize; ++t) {
            const int byte = k + 2 + t - first;  // 0..7 within the pair
            put(packed.last_row[2 * k + byte / 4], byte % 4, filter.weights[kLastRow * kFilterSize + t]);
        }
    }
    return packed;
}

// --- CPU reference and test pictures ---------------------------------------------

std::vector<std::uint8_t> reference(const course::Image& image, const Filter& filter) {
    return filter_on_cpu(grey_pixels(image), image.width, image.height, filter.weights,
                         [&](int sum) { return scale_and_clamp(sum, filter.scale); });
}

// --- The problem -----------------------------------------------------------------------

Problem::Problem(const course::Image& image, int pitch, const Filter& filter)
    : ByteImages(
          "convolution", image, [filter](const course::Image& input) { return reference(input, filter); }, pitch) {}

Params Problem::params() const {
    Params params;
    params.in = in();
    params.out = const_cast<Problem*>(this)->out();
    params.width = width();
    params.height = height();
    params.pitch = this->pitch();
    return params;
}

course::KernelRun Problem::run(Launcher launch, const Params& params) {
    return course::KernelRun{
        [launch, params](cudaStream_t stream) { launch(params, stream); },
        [this](std::uint8_t pattern, cudaStream_t stream) { poison(pattern, stream); },
        [this]() { return check(); },
        [this](int set, cudaStream_t stream) { use_inputs(set, stream); },
    };
}

// --- Settings ------------------------------------------------------------------------------

std::vector<course::OptionSpec> track_options() {
    return {
        {"block", "WxH", "threads per block (the talk tried 16x16, 16x8, 16x20 and 19x13)", "16x16"},
        {"pitch-pad", "N",
         "bytes added to every row's pitch (0: rows start on 128-byte boundaries; 4 or 1 misalign them, as in the "
         "talk's unaligned-pitch experiment)",
         "0"},
    };
}

Settings settings_from(const course::Options& options) {
    Settings settings;
    const course::ImageRequest image = course::image_request(options, settings.width, kMaxSide);
    settings.width = image.width;
    settings.height = image.height;
    settings.input = image.input;

    const std::string& block = options.option("block");
    const auto shape = course::parse_dims(block, 2, "--block");
    if (shape[0] > static_cast<std::uint64_t>(kMaxBlockSide) || shape[1] > static_cast<std::uint64_t>(kMaxBlockSide) ||
        shape[0] * shape[1] > static_cast<std::uint64_t>(kMaxBlockThreads))
        throw course::UsageError("--block: \"" + block + "\" is not a shape the track runs: each side from 1 to " +
                                 std::to_string(kMaxBlockSide) + ", at most " + std::to_string(kMaxBlockThreads) +
                                 " threads (try 16x16, 16x8, 16x20 or 19x13)");
    settings.block = dim3(static_cast<unsigned>(shape[0]), static_cast<unsigned>(shape[1]));

    settings.pitch_pad = course::pitch_pad_option(options);

    return settings;
}

// --- References: the copy and NPP -------------------------------------------------------

namespace {

#ifdef COURSE_HAVE_NPP

// NPP's general filter, nppiFilter_8u_C1R_Ctx, made to compute exactly the
// track's filter:
//  * NPP convolves: it applies the coefficient array in reverse order (its
//    documentation: "Coefficients are expected to be stored in reverse
//    order"), where the track correlates (weights as written). So it gets
//    the weights reversed, and turns them back.
//  * It divides the weighted sum by an integer, nDivisor, and stores the
//    result saturated to 0..255. The track's scale is 1/64: the division by
//    64 is exact in float too, and truncation and rounding down differ only
//    for negative sums, which clamp to 0 either way.
//  * It filters a region of interest: the interior, from (2, 2), width - 4 by
//    height - 4, whose 5x5 neighbourhoods lie inside the image. The anchor
//    (2, 2) is the kernel's centre. The 2-pixel frame is copied before each
//    run (Problem::copy_frame, not timed).
//  * The _Ctx form runs on the stream it is given (the harness's), with the
//    stream context filled in from the device's properties; CUDA 13's NPP
//    has only the _Ctx forms.
class NppRung {
public:
    NppRung(Problem& problem, const Filter& filter, int divisor, cudaStream_t stream)
        : problem_(problem), divisor_(divisor) {
        std::vector<Npp32s> reversed(filter.weights, filter.weights + kTaps);
        std::reverse(reversed.begin(), reversed.end());
        kernel_.upload(reversed);

        context_ = course::npp_stream_context(stream);
    }

    course::KernelRun run() {
        return course::KernelRun{
            [this](cudaStream_t stream) { launch(stream); },
            [this](std::uint8_t pattern, cudaStream_t stream) {
                problem_.poison(pattern, stream);
                problem_.copy_frame(stream);
            },
            [this]() { return problem_.check(); },
            [this](int set, cudaStream_t stream) { problem_.use_inputs(set, stream); },
        };
    }

private:
    void launch(cudaStream_t stream) {
        const int w = problem_.width(), h = problem_.height(), p = problem_.pitch();
        if (w <= 2 * kRadius || h <= 2 * kRadius) return;  // no interior: the frame is everything
        const std::size_t corner = static_cast<std::size_t>(kRadius) * p + kRadius;
        NppiSize roi;
        roi.width = w - 2 * kRadius;
        roi.height = h - 2 * kRadius;
        NppiSize size;
        size.width = kFilterSize;
        size.height = kFilterSize;
        NppiPoint anchor;
        anchor.x = kRadius;
        anchor.y = kRadius;
        context_.hStream = stream;
        const NppStatus status = nppiFilter_8u_C1R_Ctx(problem_.in() + corner, p, problem_.out() + corner, p, roi,
                                                       kernel_.data(), size, anchor, divisor_, context_);
        if (status < 0)
            throw course::Error("nppiFilter_8u_C1R_Ctx failed: NppStatus " + std::to_string(static_cast<int>(status)));
    }

    Problem& problem_;
    course::DeviceBuffer<Npp32s> kernel_{kTaps};
    Npp32s divisor_;
    NppStreamContext context_{};
};

// When NPP's output disagrees with the reference: does it match the filter
// applied the other way round, or a division that rounds to nearest? The
// answer goes into the check's message, so the rung reports its mismatch
// with what it means instead of hiding it.
std::string diagnose_npp(const Problem& problem, const Filter& filter, int divisor) {
    const std::vector<std::uint8_t>& in = problem.input_pixels();
    Filter turned = filter;
    std::reverse(turned.weights, turned.weights + kTaps);
    auto truncate = [&](int sum) { return scale_and_clamp(sum, filter.scale); };
    auto nearest = [&](int sum) {
        const int q = static_cast<int>(std::lround(static_cast<double>(sum) / divisor));
        return static_cast<std::uint8_t>(std::clamp(q, 0, 255));
    };
    struct Variant {
        const char* what;
        std::vector<std::uint8_t> pixels;
    };
    const int w = problem.width(), h = problem.height();
    const Variant variants[] = {
        {"the weights turned by a half (NPP did not reverse them: pass them unreversed)",
         filter_on_cpu(in, w, h, turned.weights, truncate)},
        {"the sum divided with rounding to nearest instead of truncation",
         filter_on_cpu(in, w, h, filter.weights, nearest)},
        {"both the weights turned by a half and rounding to nearest", filter_on_cpu(in, w, h, turned.weights, nearest)},
    };
    for (const Variant& variant : variants)
        if (problem.check(variant.pixels).ok)
            return std::string("; NPP's output matches the filter with ") + variant.what;
    return "; NPP's output matches none of the variants tried (weights turned, rounding to nearest)";
}

// The NPP rung's check, with the diagnosis when it fails.
course::KernelRun diagnosed(course::KernelRun run, const Problem& problem, const Filter& filter, int divisor) {
    run.check = [check = run.check, &problem, filter, divisor]() {
        course::CheckResult result = check();
        if (!result.ok && result.checked > 0) result.first_detail += diagnose_npp(problem, filter, divisor);
        return result;
    };
    return run;
}

#endif  // COURSE_HAVE_NPP

// NPP divides by an integer; it computes the track's rule exactly only when
// the scale is 1/2^k (see scale_shift).
int npp_divisor(const Filter& filter) {
    const int shift = scale_shift(filter.scale);
    return shift < 0 ? 0 : 1 << shift;
}

std::string describe_image(const Settings& settings, const Problem& problem) {
    const std::string source = settings.input.empty() ? "synthetic image" : settings.input;
    return "5x5 filter on " + std::to_string(problem.width()) + "x" + std::to_string(problem.height()) +
           " 8-bit pixels (" + source + "), pitch " + std::to_string(problem.pitch()) + " B, block " +
           std::to_string(settings.block.x) + "x" + std::to_string(settings.block.y) + "; " +
           course::format_bytes(problem.bytes_moved()) + " moved per run (each pixel read once, written once)";
}

course::Image load_input(const Settings& settings, std::uint64_t seed) {
    return course::load_requested_image({settings.width, settings.height, settings.input}, seed, kMaxSide);
}

}  // namespace

bool have_npp() {
#ifdef COURSE_HAVE_NPP
    return true;
#else
    return false;
#endif
}

// --- The ladder ---------------------------------------------------------------------------------

Measured measure_ladder(const std::vector<Step>& steps, const course::TrackRun& run, bool references) {
    const Settings settings = settings_from(run.options);
    const course::Image image = load_input(settings, run.options.seed);
    const int pitch = default_pitch(image.width) + settings.pitch_pad;
    // Input, output, a texture-aligned copy of the input, NPP's scratch.
    course::require_device_memory(3 * (static_cast<std::size_t>(pitch) * image.height + 4096),
                                  std::to_string(image.width) + "x" + std::to_string(image.height) + " image");
    course::Harness& harness = run.harness;
    const cudaStream_t stream = harness.stream.get();

    Problem problem(image, pitch);
    Measured measured;
    course::Ladder& ladder = measured.ladder;
    ladder.track = "convolution";
    ladder.problem = describe_image(settings, problem);
    ladder.unit = course::Unit::bandwidth;
    ladder.peak = harness.device.peak_dram_gbps;
    ladder.library_name = "NPP";
    ladder.extra_columns = {"memory-only ms", "% of copy"};

    for (const Step& step : steps) {
        course::TextureObject texture;
        if (step.texture != nullptr) texture = problem.texture(step.texture());
        Params params = problem.params();
        params.block = settings.block;
        params.texture = texture.get();

        course::Rung rung = course::measure(
            harness, course::step_rung(step.number, step.title, run.student_step, problem.bytes_moved()),
            problem.run(step.launch, params));

        if (&step == &steps.back() && !run.options.output_image.empty())
            course::save_image(run.options.output_image, problem.output());

        std::optional<course::TimingStats> memory_only;
        if (rung.check.ok) {
            params.memory_only = true;
            memory_only = course::time_launches([&](cudaStream_t s) { step.launch(params, s); }, harness.timing,
                                                &harness.flusher, stream);
        }
        rung.extra_values = {memory_only ? course::format_milliseconds(memory_only->median_ms) : "-", ""};
        ladder.rungs.push_back(rung);
        measured.memory_only.push_back(memory_only);
    }
    if (problem.texture_reads_a_copy())
        ladder.notes.push_back("steps 02-05 read a copy of the input with a texture-aligned pitch: the texture unit "
                               "cannot bind rows " +
                               std::to_string(problem.pitch()) + " bytes apart");
    if (steps.empty()) return measured;

    // The copy: the bandwidth ceiling no step may beat, and with the
    // references a row and the "% of copy" column.
    const std::size_t copy_row = ladder.rungs.size();
    ladder.rungs.push_back(problem.copy_rung(harness));
    ladder.rungs.back().extra_values = {"-", ""};
    problem.set_copy_ceiling(ladder, ladder.rungs[copy_row], harness);
    if (!references) {
        // A race keeps only the steps' rows: the copy is measured for the
        // ceiling alone.
        ladder.rungs.pop_back();
        course::enforce_ceiling(ladder);
        return measured;
    }
    const course::Rung copy = ladder.rungs.back();

    const int divisor = npp_divisor(kFilter);
#ifdef COURSE_HAVE_NPP
    if (divisor > 0) {
        NppRung npp(problem, kFilter, divisor, stream);
        course::Rung rung = course::reference_rung("NPP nppiFilter_8u_C1R_Ctx", problem.bytes_moved());
        rung = course::measure_library(harness, rung, diagnosed(npp.run(), problem, kFilter, divisor));
        rung.extra_values = {"-", ""};
        ladder.rungs.push_back(rung);
        ladder.notes.push_back("ref: NPP filters the interior; the 2-pixel frame is copied before each run, untimed");
    } else {
        ladder.notes.push_back("no NPP rung: NPP divides by an integer, and this filter's scale is not 1/2^k");
    }
#else
    (void)divisor;
    ladder.notes.push_back("no NPP rung: this build did not find NPP (the CUDA toolkit's nppif and nppc libraries); "
                           "install them and run meson setup --reconfigure to compare with nppiFilter_8u_C1R");
#endif

    course::enforce_ceiling(ladder);
    for (course::Rung& rung : ladder.rungs)
        if (rung.check.ok && copy.check.ok && rung.time.median_ms > 0)
            rung.extra_values[1] = course::format_percent(copy.time.median_ms / rung.time.median_ms);
    ladder.notes.push_back("memory-only ms: the same kernel, the same loads and stores, the weighted sums left out");

    // The course's targets (course-targets checks them), when the ladder
    // holds their step.
    course::note_targets(ladder, kTargets);
    return measured;
}

std::vector<course::Ladder> run_ladder(const std::vector<Step>& steps, const course::TrackRun& run) {
    return {measure_ladder(steps, run, true).ladder};
}

}  // namespace convolution
