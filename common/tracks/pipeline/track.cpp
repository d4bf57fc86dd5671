#include "tracks/pipeline/track.h"

#include "course/check.h"
#include "course/image_options.h"
#include "course/launch_helpers.h"
#include "course/options.h"
#include "course/parallel.h"

#include <algorithm>
#include <cstdio>

#ifdef COURSE_HAVE_NPP
#include "course/npp_context.h"

#include <nppi_color_conversion.h>
#include <nppi_data_exchange_and_initialization.h>
#include <nppi_filtering_functions.h>
#endif

namespace pipeline {

namespace {

// Images are limited so that every offset a kernel computes fits an int
// (y * rgb_pitch + 3 x < 2^31, with room for --pitch-pad) and every grid
// fits the launch limits.
constexpr int kMaxSide = 16384;

int round_up(int value, int multiple) { return (value + multiple - 1) / multiple * multiple; }

// Runs body(y) for every row y of an image `height` rows high, on every core.
template <typename Body>
void each_row(int height, Body body) {
    course::parallel_for(static_cast<std::size_t>(height), [&](std::size_t begin, std::size_t end) {
        for (std::size_t y = begin; y < end; ++y) body(static_cast<int>(y));
    });
}

}  // namespace

// --- Helpers ------------------------------------------------------------------------

dim3 grid_for(const Params& params, int block_width, int block_height) {
    return course::image_grid("pipeline", params.width, params.height, block_width, block_height);
}

bool rows_aligned(const Params& params, int bytes) {
    return course::rows_aligned(params.rgb, params.out, params.pitch, bytes) && params.rgb_pitch % bytes == 0;
}

// --- CPU reference --------------------------------------------------------------------

std::vector<std::uint8_t> grey_image(const course::Image& rgb) {
    if (rgb.channels != 3) throw course::Error("pipeline: the image must have 3 channels (RGB)");
    std::vector<std::uint8_t> grey(static_cast<std::size_t>(rgb.width) * rgb.height);
    for (std::size_t i = 0; i < grey.size(); ++i)
        grey[i] = static_cast<std::uint8_t>(grey_of(rgb.pixels[3 * i], rgb.pixels[3 * i + 1], rgb.pixels[3 * i + 2]));
    return grey;
}

std::vector<std::uint8_t> blur_image(const std::vector<std::uint8_t>& grey, int w, int h) {
    std::vector<std::uint8_t> blurred(grey.size());
    each_row(h, [&](int y) {
        for (int x = 0; x < w; ++x) {
            int sum = 0;
            for (int j = -kRadius; j <= kRadius; ++j)
                for (int i = -kRadius; i <= kRadius; ++i) {
                    const int sx = std::clamp(x + i, 0, w - 1), sy = std::clamp(y + j, 0, h - 1);
                    sum += gauss_weight(i) * gauss_weight(j) * grey[static_cast<std::size_t>(sy) * w + sx];
                }
            blurred[static_cast<std::size_t>(y) * w + x] = static_cast<std::uint8_t>(blur_of(sum));
        }
    });
    return blurred;
}

std::vector<std::uint8_t> edge_image(const std::vector<std::uint8_t>& blurred, int w, int h) {
    std::vector<std::uint8_t> edges(blurred.size());
    each_row(h, [&](int y) {
        const auto at = [&](int x, int yy) {
            return static_cast<int>(
                blurred[static_cast<std::size_t>(std::clamp(yy, 0, h - 1)) * w + std::clamp(x, 0, w - 1)]);
        };
        for (int x = 0; x < w; ++x) {
            const int gx = at(x + 1, y - 1) + 2 * at(x + 1, y) + at(x + 1, y + 1) - at(x - 1, y - 1) -
                           2 * at(x - 1, y) - at(x - 1, y + 1);
            const int gy = at(x - 1, y - 1) + 2 * at(x, y - 1) + at(x + 1, y - 1) - at(x - 1, y + 1) -
                           2 * at(x, y + 1) - at(x + 1, y + 1);
            edges[static_cast<std::size_t>(y) * w + x] = edge_of(gx, gy);
        }
    });
    return edges;
}

std::vector<std::uint8_t> reference(const course::Image& rgb) {
    if (rgb.width <= 0 || rgb.height <= 0) throw course::Error("pipeline: the image is empty");
    return edge_image(blur_image(grey_image(rgb), rgb.width, rgb.height), rgb.width, rgb.height);
}

// --- The problem -----------------------------------------------------------------------

namespace {

int checked_pitch(int chosen, int row_bytes, const char* what) {
    if (chosen < row_bytes)
        throw course::Error(std::string("pipeline: a ") + what + " pitch of " + std::to_string(chosen) +
                            " bytes is narrower than a row (" + std::to_string(row_bytes) + " bytes)");
    return chosen;
}

}  // namespace

Problem::Problem(const course::Image& image, int rgb_pitch, int pitch)
    : sets_{{0, InputSet{image, reference(image)}}},
      rgb_(3 * image.width, image.height,
           checked_pitch(rgb_pitch == 0 ? round_up(3 * image.width, 128) : rgb_pitch, 3 * image.width, "RGB")),
      out_(image.width, image.height,
           checked_pitch(pitch == 0 ? course::default_pitch(image.width) : pitch, image.width, "edge image")),
      grey_(image.width, image.height, out_.pitch()), blurred_(image.width, image.height, out_.pitch()),
      copy_(2 * static_cast<std::size_t>(image.width) * image.height) {
    // The padding and spare bytes of the input hold a fixed pattern: a
    // kernel may read them (whole words near the right edge), never use them.
    rgb_.fill(0x5a, nullptr);
    use_inputs(0, nullptr);
}

const Problem::InputSet& Problem::input_set(int set) {
    auto found = sets_.find(set);
    if (found == sets_.end()) {
        course::Image rgb = course::input_set_image(sets_.at(0).rgb, set);
        std::vector<std::uint8_t> expected = reference(rgb);
        found = sets_.emplace(set, InputSet{std::move(rgb), std::move(expected)}).first;
    }
    return found->second;
}

void Problem::use_inputs(int set, cudaStream_t) {
    const InputSet& inputs = input_set(set);
    rgb_.upload(inputs.rgb.pixels);
    current_ = set;
}

Params Problem::params() {
    Params params;
    params.rgb = rgb_.data();
    params.out = out_.data();
    params.width = width();
    params.height = height();
    params.rgb_pitch = rgb_pitch();
    params.pitch = pitch();
    params.grey = grey_.data();
    params.blurred = blurred_.data();
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

void Problem::poison(std::uint8_t pattern, cudaStream_t stream) {
    out_.fill(pattern, stream);
    last_poison_ = pattern;
}

course::CheckResult Problem::check() const { return course::check_device_image(out_, expected(), last_poison_); }

course::KernelRun Problem::copy_run() {
    return course::KernelRun{
        [this](cudaStream_t stream) {
            CUDA_CHECK(cudaMemcpyAsync(copy_.data(), rgb_.data(), copy_.bytes(), cudaMemcpyDeviceToDevice, stream));
        },
        [this](std::uint8_t pattern, cudaStream_t stream) { copy_.fill_bytes(pattern, stream); },
        [this]() {
            const std::vector<std::uint8_t> all = rgb_.download_all();
            const std::vector<std::uint8_t> got = copy_.download();
            return course::compare_exact(got.data(), all.data() + rgb_.offset(), got.size());
        },
    };
}

course::Image Problem::output() const { return out_.download_image(); }

// --- Settings ------------------------------------------------------------------------------

std::vector<course::OptionSpec> track_options() {
    return {
        {"pitch-pad", "N",
         "bytes added to the pitch of the RGB image and of the edge image (0: rows start on 128-byte "
         "boundaries; 1 misaligns them, and the 4-byte words of steps 06 to 09 fall back to bytes)",
         "0"},
    };
}

Settings settings_from(const course::Options& options) {
    Settings settings;
    const course::ImageRequest image = course::image_request(options, settings.width, kMaxSide);
    settings.width = image.width;
    settings.height = image.height;
    settings.input = image.input;
    settings.pitch_pad = course::pitch_pad_option(options);
    return settings;
}

// --- The NPP rung -----------------------------------------------------------------------

namespace {

#ifdef COURSE_HAVE_NPP

// NPP's pipeline, as a time reference only: NPP's own rules differ from the
// track's, so its output is not compared.
//  * nppiRGBToGray_8u_C3C1R_Ctx: grey with weights 0.299, 0.587, 0.114.
//  * nppiFilterGaussBorder_8u_C1R_Ctx with NPP_MASK_SIZE_7_X_7: a 7x7
//    Gaussian with NPP's own weights (not 1 2 3 4 3 2 1), replicated border.
//  * nppiGradientVectorSobelBorder_8u16s_C1R_Ctx with the L2 norm: the
//    magnitude sqrt(Gx^2 + Gy^2) as a 16-bit image, replicated border; then
//    nppiConvert_16s8u_C1R_Ctx saturates it to 8 bits.
// Each call reads the image the call before wrote: the traffic the fused
// steps avoid.
class NppRung {
public:
    NppRung(Problem& problem, cudaStream_t stream)
        : problem_(problem), grey_(plane()), blurred_(plane()), magnitude_(plane()) {
        context_ = course::npp_stream_context(stream);
    }

    course::KernelRun run() {
        return course::KernelRun{
            [this](cudaStream_t stream) { launch(stream); },
            [this](std::uint8_t pattern, cudaStream_t stream) { problem_.poison(pattern, stream); },
            []() {
                return course::unchecked("a time reference: NPP's grey and Gaussian weights differ from the track's");
            },
        };
    }

private:
    std::size_t plane() const { return static_cast<std::size_t>(problem_.width()) * problem_.height(); }

    static void ok(NppStatus status, const char* call) {
        if (status < 0)
            throw course::Error(std::string(call) + " failed: NppStatus " + std::to_string(static_cast<int>(status)));
    }

    void launch(cudaStream_t stream) {
        const int w = problem_.width(), h = problem_.height();
        const NppiSize size{w, h};
        context_.hStream = stream;
        ok(nppiRGBToGray_8u_C3C1R_Ctx(problem_.rgb(), problem_.rgb_pitch(), grey_.data(), w, size, context_),
           "nppiRGBToGray_8u_C3C1R_Ctx");
        ok(nppiFilterGaussBorder_8u_C1R_Ctx(grey_.data(), w, size, NppiPoint{0, 0}, blurred_.data(), w, size,
                                            NPP_MASK_SIZE_7_X_7, NPP_BORDER_REPLICATE, context_),
           "nppiFilterGaussBorder_8u_C1R_Ctx");
        const int step16 = w * static_cast<int>(sizeof(Npp16s));
        ok(nppiGradientVectorSobelBorder_8u16s_C1R_Ctx(blurred_.data(), w, size, NppiPoint{0, 0}, nullptr, 0, nullptr,
                                                       0, magnitude_.data(), step16, nullptr, 0, size,
                                                       NPP_MASK_SIZE_3_X_3, nppiNormL2, NPP_BORDER_REPLICATE, context_),
           "nppiGradientVectorSobelBorder_8u16s_C1R_Ctx");
        ok(nppiConvert_16s8u_C1R_Ctx(magnitude_.data(), step16, problem_.out(), problem_.pitch(), size, context_),
           "nppiConvert_16s8u_C1R_Ctx");
    }

    Problem& problem_;
    course::DeviceBuffer<Npp8u> grey_, blurred_;
    course::DeviceBuffer<Npp16s> magnitude_;
    NppStreamContext context_{};
};

#endif  // COURSE_HAVE_NPP

std::string describe_image(const Settings& settings, const Problem& problem) {
    const std::string source = settings.input.empty() ? "synthetic image" : settings.input;
    return "grey, 7x7 Gaussian and Sobel of " + std::to_string(problem.width()) + "x" +
           std::to_string(problem.height()) + " RGB pixels (" + source + "), pitches " +
           std::to_string(problem.rgb_pitch()) + " B (RGB) and " + std::to_string(problem.pitch()) + " B (edges); " +
           course::format_bytes(problem.bytes_moved()) + " moved per run (3 bytes read and 1 written per pixel)";
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

course::Ladder measure_ladder(const std::vector<Step>& steps, const course::TrackRun& run, bool references) {
    const Settings settings = settings_from(run.options);
    const course::Image image = course::load_requested_image({settings.width, settings.height, settings.input},
                                                             run.options.seed, kMaxSide, /*channels=*/3);
    const int rgb_pitch = round_up(3 * image.width, 128) + settings.pitch_pad;
    const int pitch = course::default_pitch(image.width) + settings.pitch_pad;
    // The RGB image, the edges, two scratch images, the copy's 2 bytes per
    // pixel, and NPP's three planes (one of them 16-bit).
    course::require_device_memory(static_cast<std::size_t>(rgb_pitch) * image.height +
                                      9 * (static_cast<std::size_t>(pitch) * image.height + 4096),
                                  std::to_string(image.width) + "x" + std::to_string(image.height) + " image");
    course::Harness& harness = run.harness;
    const cudaStream_t stream = harness.stream.get();

    Problem problem(image, rgb_pitch, pitch);
    course::Ladder ladder;
    ladder.track = "pipeline";
    ladder.problem = describe_image(settings, problem);
    ladder.unit = course::Unit::bandwidth;
    ladder.peak = harness.device.peak_dram_gbps;
    ladder.library_name = "NPP";
    ladder.extra_columns = {"% of copy"};

    for (const Step& step : steps) {
        course::Rung rung = course::measure(
            harness, course::step_rung(step.number, step.title, run.student_step, problem.bytes_moved()),
            problem.run(step.launch, problem.params()));
        if (&step == &steps.back() && !run.options.output_image.empty())
            course::save_image(run.options.output_image, problem.output());
        rung.extra_values = {""};
        ladder.rungs.push_back(rung);
    }
    if (steps.empty()) return ladder;

    // The copy: the bandwidth ceiling no step may beat (the same bytes: 2
    // read and 2 written per pixel, where a step reads 3 and writes 1), and
    // with the references a row and the "% of copy" column.
    const std::size_t copy_row = ladder.rungs.size();
    {
        course::Rung rung;
        rung.label = "copy";
        rung.title = "device-to-device copy, 2 bytes per pixel";
        rung.work = problem.bytes_moved();
        rung = course::measure(harness, rung, problem.copy_run());
        rung.extra_values = {""};
        ladder.rungs.push_back(rung);
    }
    course::ceiling_from_row(ladder, copy_row, "a device-to-device copy of the same bytes");
    if (!references) {
        // A race keeps only the steps' rows: the copy is measured for the
        // ceiling alone.
        ladder.rungs.pop_back();
        course::enforce_ceiling(ladder);
        return ladder;
    }
    const course::Rung copy = ladder.rungs.back();

#ifdef COURSE_HAVE_NPP
    {
        NppRung npp(problem, stream);
        course::Rung rung = course::reference_rung(
            "NPP RGBToGray + FilterGaussBorder 7x7 + GradientVectorSobel (L2) + Convert", problem.bytes_moved());
        rung = course::measure_library(harness, rung, npp.run());
        rung.extra_values = {""};
        ladder.rungs.push_back(rung);
        ladder.notes.push_back("ref: NPP's grey, Gaussian and Sobel calls, a time reference only: NPP's grey weights "
                               "(0.299, 0.587, 0.114) and 7x7 Gaussian weights are not the talk's, so its output is "
                               "not compared with the track's");
    }
#else
    (void)stream;
    ladder.notes.push_back("no NPP rung: this build did not find NPP (the CUDA toolkit's nppif, nppicc, nppidei and "
                           "nppc libraries); install them and run meson setup --reconfigure to compare with NPP");
#endif

    course::enforce_ceiling(ladder);
    for (course::Rung& rung : ladder.rungs)
        if (rung.check.ok && copy.check.ok && rung.time.median_ms > 0)
            rung.extra_values[0] = course::format_percent(copy.time.median_ms / rung.time.median_ms);

    // The course's targets (course-targets checks them), when the ladder
    // holds their step.
    course::note_targets(ladder, kTargets);
    return ladder;
}

std::vector<course::Ladder> run_ladder(const std::vector<Step>& steps, const course::TrackRun& run) {
    return {measure_ladder(steps, run, true)};
}

}  // namespace pipeline
