#include "tracks/separable/track.h"

#include "course/check.h"
#include "course/image_options.h"
#include "course/launch_helpers.h"
#include "course/options.h"
#include "course/parallel.h"
#include "course/random.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#ifdef COURSE_HAVE_NPP
#include "course/npp_context.h"

#include <nppi_filtering_functions.h>
#endif

namespace separable {

// --- The filter, the reference, the tolerance ---------------------------------------------

void require_taps(int taps, const std::string& what) {
    if (taps < 1 || taps > kMaxTaps || taps % 2 == 0)
        throw course::UsageError(what + ": " + std::to_string(taps) +
                                 " taps; the filter needs an odd length from 1 to " + std::to_string(kMaxTaps));
}

std::vector<float> triangle_filter(int taps) {
    require_taps(taps, "--taps");
    const int r = taps / 2;
    std::vector<float> weights(taps);
    const double sum = static_cast<double>(r + 1) * (r + 1);
    for (int k = 0; k < taps; ++k) weights[k] = static_cast<float>((r + 1 - std::abs(k - r)) / sum);
    return weights;
}

std::vector<float> reference(const std::vector<float>& image, int width, int height,
                             const std::vector<float>& weights) {
    const int taps = static_cast<int>(weights.size()), r = taps / 2;
    const std::size_t n = static_cast<std::size_t>(width) * static_cast<std::size_t>(height);
    if (image.size() != n) throw course::Error("separable: the image has the wrong number of pixels");
    std::vector<double> rows(n);
    course::parallel_for(static_cast<std::size_t>(height), [&](std::size_t first, std::size_t last) {
        for (int y = static_cast<int>(first); y < static_cast<int>(last); ++y)
            for (int x = 0; x < width; ++x) {
                double sum = 0;
                for (int k = 0; k < taps; ++k)
                    sum += static_cast<double>(weights[k]) *
                           image[static_cast<std::size_t>(y) * width + clamp_index(x + k - r, width)];
                rows[static_cast<std::size_t>(y) * width + x] = sum;
            }
    });
    std::vector<float> out(n);
    course::parallel_for(static_cast<std::size_t>(height), [&](std::size_t first, std::size_t last) {
        for (int y = static_cast<int>(first); y < static_cast<int>(last); ++y)
            for (int x = 0; x < width; ++x) {
                double sum = 0;
                for (int k = 0; k < taps; ++k)
                    sum += static_cast<double>(weights[k]) *
                           rows[static_cast<std::size_t>(clamp_index(y + k - r, height)) * width + x];
                out[static_cast<std::size_t>(y) * width + x] = static_cast<float>(sum);
            }
    });
    return out;
}

course::Tolerance tolerance(const std::vector<float>& weights, const std::vector<float>& image) {
    double s = 0, m = 0;
    for (const float w : weights) s += std::fabs(static_cast<double>(w));
    for (const float v : image) m = std::max(m, std::fabs(static_cast<double>(v)));
    return course::Tolerance{0.0, 4.0 * static_cast<double>(weights.size()) * std::ldexp(1.0, -24) * s * s * m};
}

std::vector<float> to_floats(const course::Image& image) {
    std::vector<float> pixels(image.pixels.size());
    for (std::size_t i = 0; i < pixels.size(); ++i) pixels[i] = image.pixels[i] / 255.0f;
    return pixels;
}

course::Image to_image(const std::vector<float>& pixels, int width, int height) {
    course::Image image;
    image.width = width;
    image.height = height;
    image.channels = 1;
    image.pixels.resize(pixels.size());
    for (std::size_t i = 0; i < pixels.size(); ++i) {
        const float v = std::isfinite(pixels[i]) ? pixels[i] : 0.0f;
        image.pixels[i] = static_cast<std::uint8_t>(std::lround(std::clamp(v, 0.0f, 1.0f) * 255.0f));
    }
    return image;
}

dim3 grid_for(const Params& params, int tile_width, int tile_height) {
    return course::image_grid("separable", params.width, params.height, tile_width, tile_height);
}

// --- The problem ------------------------------------------------------------------------------

std::vector<float> input_set_pixels(const std::vector<float>& image, int set) {
    if (set == 0) return image;
    // The sets must differ from set 0 and from each other, not from run to run.
    course::Rng rng(course::input_set_seed(0x5e9a7ab1e, set));
    std::vector<float> varied(image.size());
    for (std::size_t i = 0; i < image.size(); ++i)
        varied[i] = 0.875f * image[i] + static_cast<float>(0.125 * rng.uniform());
    return varied;
}

Problem::Problem(std::vector<float> image, int width, int height, std::vector<float> weights)
    : width_(width), height_(height), weights_(std::move(weights)), in_(image.size()), out_(image.size()),
      tmp_(image.size()), device_weights_(weights_.size()) {
    if (width < 1 || height < 1) throw course::Error("separable: the image must be at least 1x1");
    require_taps(static_cast<int>(weights_.size()), "separable: the filter");
    InputSet own;
    own.expected = reference(image, width, height, weights_);
    own.tolerance = tolerance(weights_, image);
    own.input = std::move(image);
    sets_.emplace(0, std::move(own));
    use_inputs(0, nullptr);
    device_weights_.upload(weights_);
}

const Problem::InputSet& Problem::input_set(int set) {
    auto found = sets_.find(set);
    if (found == sets_.end()) {
        InputSet inputs;
        inputs.input = input_set_pixels(sets_.at(0).input, set);
        inputs.expected = reference(inputs.input, width_, height_, weights_);
        inputs.tolerance = tolerance(weights_, inputs.input);
        found = sets_.emplace(set, std::move(inputs)).first;
    }
    return found->second;
}

void Problem::use_inputs(int set, cudaStream_t) {
    const InputSet& inputs = input_set(set);
    in_.upload(inputs.input);
    current_ = set;
}

void Problem::select_inputs(int set) {
    input_set(set);
    current_ = set;
}

Params Problem::params() {
    Params params;
    params.in = in_.data();
    params.out = out_.data();
    params.tmp = tmp_.data();
    params.width = width_;
    params.height = height_;
    params.weights = device_weights_.data();
    params.taps = taps();
    return params;
}

course::KernelRun Problem::run(Launcher launch) {
    return course::KernelRun{
        [this, launch](cudaStream_t stream) { launch(params(), stream); },
        [this](std::uint8_t pattern, cudaStream_t stream) { poison(pattern, stream); },
        [this]() { return check(); },
        [this](int set, cudaStream_t stream) { use_inputs(set, stream); },
    };
}

course::CheckResult Problem::check() const { return check_output(out_.download().data()); }

course::CheckResult Problem::check_output(const float* got) const {
    const InputSet& inputs = current_set();
    course::CheckResult result = course::compare_close(got, inputs.expected.data(), pixels(), inputs.tolerance);
    if (!result.ok) {
        const std::size_t x = result.first_bad % width_, y = result.first_bad / width_;
        result.first_detail = "pixel (" + std::to_string(x) + ", " + std::to_string(y) + "): " + result.first_detail;
    }
    return result;
}

course::Image Problem::output() const { return to_image(out_.download(), width_, height_); }

// --- Settings -----------------------------------------------------------------------------------

std::vector<course::OptionSpec> track_options() {
    return {{"taps", "N",
             "filter length, odd, 1 to 63: the triangle 1 2 .. r+1 .. 2 1, normalised (7 gives 1 2 3 4 3 2 1)", "7"},
            {"chunks", "N", "the transfers lesson (08): bands of rows the job is cut into, 1 to 1024",
             std::to_string(kDefaultChunks)},
            {"streams", "N", "the transfers lesson (08): streams the chunks take turns on, 1 to 32",
             std::to_string(kDefaultStreams)}};
}

namespace {
int count_option(const course::Options& options, const char* name, int most) {
    const std::uint64_t count = course::parse_count(options.option(name), std::string("--") + name);
    if (count < 1 || count > static_cast<std::uint64_t>(most))
        throw course::UsageError(std::string("--") + name + ": " + options.option(name) + "; give 1 to " +
                                 std::to_string(most));
    return static_cast<int>(count);
}
}  // namespace

Settings settings_from(const course::Options& options) {
    Settings settings;
    const course::ImageRequest image = course::image_request(options, kDefaultSide, kMaxSide);
    settings.width = image.width;
    settings.height = image.height;
    settings.input = image.input;
    const std::string& taps = options.option("taps");
    const std::uint64_t count = course::parse_count(taps, "--taps");
    if (count > static_cast<std::uint64_t>(kMaxTaps)) require_taps(kMaxTaps + 1, "--taps");
    settings.taps = static_cast<int>(count);
    require_taps(settings.taps, "--taps");
    settings.chunks = count_option(options, "chunks", kMaxChunks);
    settings.streams = count_option(options, "streams", kMaxStreams);
    return settings;
}

// --- The references: the copy and NPP ----------------------------------------------------------

namespace {

// The image copied device to device: one read and one write of it, the least
// any filter step moves, so its time is the bandwidth ceiling.
course::KernelRun copy_run(Problem& problem) {
    return course::KernelRun{
        [&problem](cudaStream_t stream) {
            CUDA_CHECK(cudaMemcpyAsync(problem.out(), problem.in(), problem.pixels() * sizeof(float),
                                       cudaMemcpyDeviceToDevice, stream));
        },
        [&problem](std::uint8_t pattern, cudaStream_t stream) { problem.poison(pattern, stream); },
        [&problem]() {
            const std::vector<float> got = problem.download_output();
            return course::compare_close(got.data(), problem.input().data(), got.size(), course::Tolerance{});
        },
        [&problem](int set, cudaStream_t stream) { problem.use_inputs(set, stream); },
    };
}

#ifdef COURSE_HAVE_NPP
// NPP's 1-D filters with border control, row pass into tmp then column pass
// into out. NPP_BORDER_REPLICATE repeats the edge pixel, as the track's
// clamp does, so NPP computes the whole image the track's way. NPP's 1-D
// filters convolve (the kernel runs backwards over the pixels), so they get
// the weights reversed, with the anchor at the centre. The weights are
// device memory, as the _Ctx forms want.
class NppRung {
public:
    NppRung(Problem& problem, cudaStream_t stream) : problem_(problem), reversed_(problem.weights().size()) {
        std::vector<float> reversed(problem.weights().rbegin(), problem.weights().rend());
        reversed_.upload(reversed);
        context_ = course::npp_stream_context(stream);
    }

    course::KernelRun run() {
        return course::KernelRun{
            [this](cudaStream_t) { launch(); },
            [this](std::uint8_t pattern, cudaStream_t stream) { problem_.poison(pattern, stream); },
            [this]() { return problem_.check(); },
            [this](int set, cudaStream_t stream) { problem_.use_inputs(set, stream); },
        };
    }

private:
    void launch() {
        const NppiSize size{problem_.width(), problem_.height()};
        const int step = problem_.width() * static_cast<int>(sizeof(float));
        const int taps = problem_.taps(), anchor = taps / 2;
        NppStatus status =
            nppiFilterRowBorder_32f_C1R_Ctx(problem_.in(), step, size, NppiPoint{0, 0}, problem_.tmp(), step, size,
                                            reversed_.data(), taps, anchor, NPP_BORDER_REPLICATE, context_);
        if (status != NPP_SUCCESS)
            throw course::Error("nppiFilterRowBorder_32f_C1R_Ctx failed: NppStatus " +
                                std::to_string(static_cast<int>(status)));
        status =
            nppiFilterColumnBorder_32f_C1R_Ctx(problem_.tmp(), step, size, NppiPoint{0, 0}, problem_.out(), step, size,
                                               reversed_.data(), taps, anchor, NPP_BORDER_REPLICATE, context_);
        if (status != NPP_SUCCESS)
            throw course::Error("nppiFilterColumnBorder_32f_C1R_Ctx failed: NppStatus " +
                                std::to_string(static_cast<int>(status)));
    }

    Problem& problem_;
    course::DeviceBuffer<float> reversed_;
    NppStreamContext context_{};
};
#endif  // COURSE_HAVE_NPP

}  // namespace

// --- The ladder -----------------------------------------------------------------------------------

Problem ladder_problem(const Settings& settings, const course::TrackRun& run) {
    const course::Image image =
        course::load_requested_image({settings.width, settings.height, settings.input}, run.options.seed, kMaxSide);
    const std::size_t pixels = static_cast<std::size_t>(image.width) * static_cast<std::size_t>(image.height);
    course::require_device_memory(3 * pixels * sizeof(float) + 4096,
                                  std::to_string(image.width) + "x" + std::to_string(image.height) + " float image");
    return Problem(to_floats(image), image.width, image.height, triangle_filter(settings.taps));
}

std::vector<course::Ladder> run_ladder(const std::vector<Step>& steps, const course::TrackRun& run) {
    const Settings settings = settings_from(run.options);
    course::Harness& harness = run.harness;
    Problem problem = ladder_problem(settings, run);
    course::Ladder ladder;
    ladder.track = "separable";
    ladder.problem = std::to_string(settings.taps) + "-tap row and column passes on " +
                     std::to_string(problem.width()) + "x" + std::to_string(problem.height()) + " float pixels (" +
                     (settings.input.empty() ? std::string("synthetic image") : settings.input) + "); " +
                     course::format_bytes(problem.bytes_moved()) +
                     " moved per run (each pixel read once, written once)";
    ladder.unit = course::Unit::bandwidth;
    ladder.peak = harness.device.peak_dram_gbps;
    ladder.library_name = "NPP";
    ladder.extra_columns = {"% of copy"};

    for (const Step& step : steps) {
        course::Rung rung = course::measure(
            harness, course::step_rung(step.number, step.title, run.student_step, problem.bytes_moved()),
            problem.run(step.launch));
        rung.extra_values = {""};
        ladder.rungs.push_back(rung);
        if (&step == &steps.back() && !run.options.output_image.empty())
            course::save_image(run.options.output_image, problem.output());
    }
    if (steps.empty()) return {ladder};

    // The copy: the bandwidth ceiling no step may beat, a row and the "% of
    // copy" column.
    const std::size_t copy_row = ladder.rungs.size();
    {
        course::Rung rung;
        rung.label = "copy";
        rung.title = "device-to-device copy of the same image";
        rung.work = problem.bytes_moved();
        rung = course::measure(harness, rung, copy_run(problem));
        rung.extra_values = {""};
        ladder.rungs.push_back(rung);
    }
    course::ceiling_from_row(ladder, copy_row, "a device-to-device copy of the same bytes");
    const course::Rung copy = ladder.rungs.back();

#ifdef COURSE_HAVE_NPP
    {
        NppRung npp(problem, harness.stream.get());
        course::Rung rung =
            course::reference_rung("NPP nppiFilterRowBorder + nppiFilterColumnBorder_32f_C1R", problem.bytes_moved());
        rung = course::measure_library(harness, rung, npp.run());
        rung.extra_values = {""};
        ladder.rungs.push_back(rung);
    }
#else
    ladder.notes.push_back("no NPP rung: this build did not find NPP (the CUDA toolkit's nppif and nppc libraries); "
                           "install them and run meson setup --reconfigure to compare with NPP's row and column "
                           "filters");
#endif
    course::enforce_ceiling(ladder);
    for (course::Rung& rung : ladder.rungs)
        if (rung.check.ok && copy.check.ok && rung.time.median_ms > 0)
            rung.extra_values[0] = course::format_percent(copy.time.median_ms / rung.time.median_ms);
    return {ladder};
}

}  // namespace separable
