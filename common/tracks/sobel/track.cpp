#include "tracks/sobel/track.h"

#include "course/check.h"
#include "course/image_options.h"
#include "course/launch_helpers.h"
#include "course/options.h"

#include <algorithm>
#include <cstdio>

#ifdef COURSE_HAVE_NPP
#include "course/npp_context.h"

#include <nppi_data_exchange_and_initialization.h>
#include <nppi_filtering_functions.h>
#endif

namespace sobel {

namespace {

// Images are limited so that every offset a kernel computes fits an int
// (y * pitch + x < 2^31) and every grid fits the launch limits.
constexpr int kMaxSide = 32768;

}  // namespace

// --- Helpers ------------------------------------------------------------------------

dim3 grid_for(const Params& params, int block_width, int block_height) {
    return course::image_grid("sobel", params.width, params.height, block_width, block_height);
}

bool rows_aligned(const Params& params, int bytes) {
    return course::rows_aligned(params.in, params.out, params.pitch, bytes);
}

// --- CPU reference --------------------------------------------------------------------

std::vector<std::uint8_t> reference(const course::Image& image) {
    if (image.channels != 1) throw course::Error("sobel: the image must have 1 channel (grey)");
    const int w = image.width, h = image.height;
    const auto at = [&](int x, int y) {
        x = std::clamp(x, 0, w - 1);
        y = std::clamp(y, 0, h - 1);
        return static_cast<int>(image.pixels[static_cast<std::size_t>(y) * w + x]);
    };
    std::vector<std::uint8_t> out(image.pixels.size());
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x)
            out[static_cast<std::size_t>(y) * w + x] =
                edge_magnitude(at(x - 1, y - 1), at(x, y - 1), at(x + 1, y - 1), at(x - 1, y), at(x + 1, y),
                               at(x - 1, y + 1), at(x, y + 1), at(x + 1, y + 1));
    return out;
}

// --- The problem -----------------------------------------------------------------------

Problem::Problem(const course::Image& image, int pitch)
    : ByteImages(
          "sobel", image, [](const course::Image& input) { return reference(input); }, pitch) {}

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
        {"pitch-pad", "N",
         "bytes added to every row's pitch (0: rows start on 128-byte boundaries; 1 misaligns them, and the "
         "wide loads of step 05 fall back to bytes)",
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

// NPP's Sobel, made to compute exactly the track's rule in two calls:
//  * nppiGradientVectorSobelBorder_8u16s_C1R_Ctx with the 3x3 mask and the
//    L1 norm writes |Horz| + |Vert| (0 to 2040) as a 16-bit image. Its border
//    mode NPP_BORDER_REPLICATE reads a neighbour outside the image as the
//    nearest pixel inside, the track's rule, so it filters the whole image,
//    frame included. It skips the X, Y and angle images (null pointers).
//  * nppiConvert_16s8u_C1R_Ctx saturates each value to 0..255: the cap.
// The 16-bit image between the two calls is NPP's cost of doing it in two
// steps: 2 bytes written and read again per pixel.
class NppRung {
public:
    NppRung(Problem& problem, cudaStream_t stream)
        : problem_(problem), magnitude_(static_cast<std::size_t>(problem.width()) * problem.height()) {
        context_ = course::npp_stream_context(stream);
    }

    course::KernelRun run() {
        return course::KernelRun{
            [this](cudaStream_t stream) { launch(stream); },
            [this](std::uint8_t pattern, cudaStream_t stream) { problem_.poison(pattern, stream); },
            [this]() { return problem_.check(); },
            [this](int set, cudaStream_t stream) { problem_.use_inputs(set, stream); },
        };
    }

private:
    void launch(cudaStream_t stream) {
        const int w = problem_.width(), h = problem_.height();
        const NppiSize size{w, h};
        const int step16 = w * static_cast<int>(sizeof(Npp16s));
        context_.hStream = stream;
        NppStatus status = nppiGradientVectorSobelBorder_8u16s_C1R_Ctx(
            problem_.in(), problem_.pitch(), size, NppiPoint{0, 0}, nullptr, 0, nullptr, 0, magnitude_.data(), step16,
            nullptr, 0, size, NPP_MASK_SIZE_3_X_3, nppiNormL1, NPP_BORDER_REPLICATE, context_);
        if (status < 0)
            throw course::Error("nppiGradientVectorSobelBorder_8u16s_C1R_Ctx failed: NppStatus " +
                                std::to_string(static_cast<int>(status)));
        status = nppiConvert_16s8u_C1R_Ctx(magnitude_.data(), step16, problem_.out(), problem_.pitch(), size, context_);
        if (status < 0)
            throw course::Error("nppiConvert_16s8u_C1R_Ctx failed: NppStatus " +
                                std::to_string(static_cast<int>(status)));
    }

    Problem& problem_;
    course::DeviceBuffer<Npp16s> magnitude_;
    NppStreamContext context_{};
};

#endif  // COURSE_HAVE_NPP

std::string describe_image(const Settings& settings, const Problem& problem) {
    const std::string source = settings.input.empty() ? "synthetic image" : settings.input;
    return "Sobel magnitude of " + std::to_string(problem.width()) + "x" + std::to_string(problem.height()) +
           " 8-bit pixels (" + source + "), pitch " + std::to_string(problem.pitch()) + " B; " +
           course::format_bytes(problem.bytes_moved()) + " moved per run (each pixel read once, written once)";
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
    const course::Image image =
        course::load_requested_image({settings.width, settings.height, settings.input}, run.options.seed, kMaxSide);
    const int pitch = course::default_pitch(image.width) + settings.pitch_pad;
    // Input, output, a texture-aligned copy of the input, NPP's 16-bit image.
    course::require_device_memory(5 * (static_cast<std::size_t>(pitch) * image.height + 4096),
                                  std::to_string(image.width) + "x" + std::to_string(image.height) + " image");
    course::Harness& harness = run.harness;
    const cudaStream_t stream = harness.stream.get();

    Problem problem(image, pitch);
    course::Ladder ladder;
    ladder.track = "sobel";
    ladder.problem = describe_image(settings, problem);
    ladder.unit = course::Unit::bandwidth;
    ladder.peak = harness.device.peak_dram_gbps;
    ladder.library_name = "NPP";
    ladder.extra_columns = {"% of copy"};

    for (const Step& step : steps) {
        course::TextureObject texture;
        if (step.texture != nullptr) texture = problem.texture(step.texture());
        Params params = problem.params();
        params.texture = texture.get();
        course::Rung rung = course::measure(
            harness, course::step_rung(step.number, step.title, run.student_step, problem.bytes_moved()),
            problem.run(step.launch, params));
        if (&step == &steps.back() && !run.options.output_image.empty())
            course::save_image(run.options.output_image, problem.output());
        rung.extra_values = {""};
        ladder.rungs.push_back(rung);
    }
    if (problem.texture_reads_a_copy())
        ladder.notes.push_back("steps 03-04 read a copy of the input with a texture-aligned pitch: the texture unit "
                               "cannot bind rows " +
                               std::to_string(problem.pitch()) + " bytes apart");
    if (steps.empty()) return ladder;

    // The copy: the bandwidth ceiling no step may beat, and with the
    // references a row and the "% of copy" column.
    const std::size_t copy_row = ladder.rungs.size();
    ladder.rungs.push_back(problem.copy_rung(harness));
    ladder.rungs.back().extra_values = {""};
    problem.set_copy_ceiling(ladder, ladder.rungs[copy_row], harness);
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
        course::Rung rung =
            course::reference_rung("NPP GradientVectorSobelBorder (L1) + Convert_16s8u", problem.bytes_moved());
        rung = course::measure_library(harness, rung, npp.run());
        rung.extra_values = {""};
        ladder.rungs.push_back(rung);
        ladder.notes.push_back("ref: NPP in two calls, the magnitude as a 16-bit image, then saturated to 8 bits");
    }
#else
    (void)stream;
    ladder.notes.push_back("no NPP rung: this build did not find NPP (the CUDA toolkit's nppif, nppidei and nppc "
                           "libraries); install them and run meson setup --reconfigure to compare with NPP's Sobel");
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

}  // namespace sobel
