#include "separable/helpers.h"

#include "course/buffers.h"
#include "course/captured_work.h"
#include "course/image.h"
#include "course/random.h"
#include "course/runner.h"
#include "sass_listing.h"
#include "separable/spin.h"

#include <cmath>
#include <cstring>
#include <map>
#include <memory>
#include <string>

namespace separable::testing {

std::vector<float> lopsided_filter(int taps, std::uint64_t seed) {
    std::vector<float> weights = course::random_floats(static_cast<std::size_t>(taps), -0.5f, 1.0f, seed);
    // One weight clearly larger than the rest, off centre (for taps > 1): a
    // mirrored filter moves it to the other side.
    weights[static_cast<std::size_t>(taps) / 4] += 2.0f;
    double sum = 0;
    for (const float w : weights) sum += w;
    for (float& w : weights) w = static_cast<float>(w / sum);
    return weights;
}

std::vector<float> test_picture(int width, int height, std::uint64_t seed) {
    std::vector<float> pixels = to_floats(course::synthetic_image(width, height, 1, seed));
    const std::vector<float> noise = course::random_floats(pixels.size(), 0.0f, 0.25f, seed ^ 0x9e3779b9u);
    for (std::size_t i = 0; i < pixels.size(); ++i) pixels[i] = 0.75f * pixels[i] + noise[i];
    return pixels;
}

void check_every_shape(Launcher launch) {
    struct Size {
        int width, height;
    };
    const std::vector<Size> sizes = {{1, 1},    {1, 37},   {37, 1},   {5, 3},   {31, 33},
                                     {129, 67}, {130, 17}, {256, 64}, {1023, 9}};
    for (const Size size : sizes) {
        for (const int taps : {1, 3, 7, 9, 15, 31, 33, 63}) {
            CAPTURE(size.width);
            CAPTURE(size.height);
            CAPTURE(taps);
            const std::uint64_t seed = 1000u * static_cast<std::uint64_t>(size.width) + size.height + 7u * taps;
            Problem problem(test_picture(size.width, size.height, seed), size.width, size.height,
                            lopsided_filter(taps, seed));
            const course::CheckResult result = course::check_once(harness(), problem.run(launch));
            CHECK_MESSAGE(result.ok, result.summary());
            course::testing::check_launches_own_kernels(problem.run(launch).launch, "");
        }
    }
}

course::LaunchRecord launches_for(Launcher launch, int width, int height, int taps) {
    Problem problem(test_picture(width, height, 5), width, height, triangle_filter(taps));
    return course::record_launches(problem.run(launch).launch);
}

std::vector<std::string> kernels_not_reading_constant_memory(Launcher launch, const std::string& library,
                                                             const std::string& cuobjdump, std::string& failure) {
    std::vector<std::string> without;
    for (const course::KernelLaunch& kernel : launches_for(launch, 129, 67, 7).kernels) {
        std::string name;
        course::testing::KernelCode code;
        if (!course::testing::launched_kernel_code(kernel.function, cuobjdump, library, name, code, failure))
            return without;
        if (course::testing::count_lines_with(code.lines, {"c[0x3]["}) == 0)
            without.push_back(course::testing::demangled(name));
    }
    return without;
}

course::CheckResult check_kernels_read_their_copy(Launcher launch, int width, int height, int taps) {
    Problem problem(test_picture(width, height, 21), width, height, lopsided_filter(taps, 22));
    course::Stream stream;
    const Params params = problem.params();
    launch(params, stream.get());
    CUDA_CHECK(cudaMemsetAsync(const_cast<float*>(params.weights), 0, static_cast<std::size_t>(taps) * sizeof(float),
                               stream.get()));
    problem.poison(0xff, stream.get());
    CUDA_CHECK(cudaStreamSynchronize(stream.get()));
    const course::CapturedWork work =
        course::CapturedWork::capture({stream.get()}, [&] { launch(params, stream.get()); });
    std::vector<std::size_t> kernels;
    for (std::size_t i = 0; i < work.nodes().size(); ++i)
        if (work.nodes()[i].kind == course::CapturedWork::Kind::kernel) kernels.push_back(i);
    work.run(kernels, stream.get());
    return problem.check_output(problem.download_output().data());
}

// The track's options at their defaults, as the command line gives them,
// and 7 taps.
std::map<std::string, std::string> race_options() {
    std::map<std::string, std::string> options = course::option_defaults(track_options());
    options["taps"] = "7";
    return options;
}

void check_speed(int step, Launcher previous, Launcher reference, Launcher graded, const std::string& advice) {
    const auto steps = course::testing::race_of<separable::Step>(step, previous, reference, graded);
    course::testing::check_speed_rule("separable " + course::step_label(step), run_ladder, steps, "4096", advice,
                                      race_options());
}

void check_every_shape(TransferLauncher launch) {
    struct Size {
        int width, height;
    };
    struct Split {
        int chunks, streams;
    };
    const std::vector<Size> sizes = {{1, 1}, {37, 1}, {5, 3}, {31, 33}, {129, 67}, {130, 17}, {1023, 9}};
    const std::vector<Split> splits = {{1, 1}, {8, 3}, {7, 2}, {64, 4}};
    for (const Size size : sizes) {
        for (const int taps : {1, 3, 7, 31, 33, 63}) {
            for (const Split split : splits) {
                CAPTURE(size.width);
                CAPTURE(size.height);
                CAPTURE(taps);
                CAPTURE(split.chunks);
                CAPTURE(split.streams);
                const std::uint64_t seed = 1000u * static_cast<std::uint64_t>(size.width) + size.height + 7u * taps;
                Problem problem(test_picture(size.width, size.height, seed), size.width, size.height,
                                lopsided_filter(taps, seed));
                const course::CheckResult result =
                    check_transfers(problem, launch, split.chunks, split.streams, harness());
                CHECK_MESSAGE(result.ok, result.summary());
            }
        }
    }
}

std::vector<ChunkTimes> transfer_times(TransferLauncher launch, int side, int chunks, int streams) {
    Problem problem(test_picture(side, side, 9), side, side, triangle_filter(7));
    std::vector<ChunkTimes> times;
    const course::CheckResult result = check_transfers(problem, launch, chunks, streams, harness(), &times);
    REQUIRE_MESSAGE(result.ok, result.summary());
    return times;
}

namespace {

// A job as the transfers ladder sets it up: pinned images, streams and four
// events per chunk, around a problem.
class TransferRig {
public:
    TransferRig(int width, int height, int taps, int chunks, int streams)
        : problem_(test_picture(width, height, 11), width, height, lopsided_filter(taps, 12)),
          pinned_in_(problem_.pixels()), pinned_out_(problem_.pixels()), chunks_(std::min(chunks, height)),
          events_(static_cast<std::size_t>(4 * chunks_)) {
        std::copy(problem_.input().begin(), problem_.input().end(), pinned_in_.begin());
        for (int s = 0; s < streams; ++s) streams_.push_back(std::make_unique<course::Stream>());
        for (const auto& stream : streams_) handles_.push_back(stream->get());
        for (int c = 0; c < chunks_; ++c)
            chunk_events_.push_back(
                {events_[4 * c].get(), events_[4 * c + 1].get(), events_[4 * c + 2].get(), events_[4 * c + 3].get()});
    }

    TransferJob job() {
        TransferJob job;
        job.host_in = pinned_in_.data();
        job.host_out = pinned_out_.data();
        job.device_in = problem_.writable_in();
        job.device = problem_.params();
        job.streams = handles_.data();
        job.stream_count = static_cast<int>(handles_.size());
        job.chunks = chunks_;
        job.events = chunk_events_.data();
        return job;
    }

    Problem& problem() { return problem_; }
    const std::vector<cudaStream_t>& streams() const { return handles_; }
    std::size_t bytes() const { return problem_.pixels() * sizeof(float); }
    const char* host_in() const { return reinterpret_cast<const char*>(pinned_in_.data()); }
    float* host_out() { return pinned_out_.data(); }
    std::size_t row_bytes() const { return static_cast<std::size_t>(problem_.width()) * sizeof(float); }

    // Every device image (in, out, tmp) and the host output set to 0xFF bytes
    // (NaN), and `extra` device regions too.
    void poison(const std::vector<std::pair<void*, std::size_t>>& extra = {}) {
        std::memset(pinned_out_.data(), 0xFF, bytes());
        CUDA_CHECK(cudaMemset(problem_.writable_in(), 0xFF, bytes()));
        CUDA_CHECK(cudaMemset(problem_.out(), 0xFF, bytes()));
        CUDA_CHECK(cudaMemset(problem_.tmp(), 0xFF, bytes()));
        for (const auto& [pointer, bytes] : extra) CUDA_CHECK(cudaMemset(pointer, 0xFF, bytes));
        CUDA_CHECK(cudaDeviceSynchronize());
    }

private:
    Problem problem_;
    course::PinnedBuffer<float> pinned_in_, pinned_out_;
    int chunks_;
    std::vector<course::Event> events_;
    std::vector<std::unique_ptr<course::Stream>> streams_;
    std::vector<cudaStream_t> handles_;
    std::vector<ChunkEvents> chunk_events_;
};

bool on_device(const void* pointer) {
    cudaPointerAttributes attributes{};
    if (cudaPointerGetAttributes(&attributes, pointer) != cudaSuccess) {
        (void)cudaGetLastError();
        return false;
    }
    return attributes.type == cudaMemoryTypeDevice;
}

// "upload of input rows 0 to 23", "download of output rows 16 to 31",
// "kernel, 1 x 1 blocks of 32 x 8", ...: what a node of the job's graph does.
std::string describe_node(const course::CapturedWork::Node& node, TransferRig& rig) {
    using Kind = course::CapturedWork::Kind;
    const auto rows = [&](const char* from, const char* base) {
        const std::size_t first = static_cast<std::size_t>(from - base) / rig.row_bytes();
        const std::size_t last = (static_cast<std::size_t>(from - base) + node.bytes - 1) / rig.row_bytes();
        return std::to_string(first) + " to " + std::to_string(last);
    };
    const char* host_out = reinterpret_cast<const char*>(rig.host_out());
    if (node.kind == Kind::kernel)
        return "kernel, " + std::to_string(node.grid.x) + " x " + std::to_string(node.grid.y) + " blocks of " +
               std::to_string(node.block.x) + " x " + std::to_string(node.block.y);
    if (node.kind == Kind::memset) return "memset of " + std::to_string(node.bytes) + " bytes";
    if (node.src >= rig.host_in() && node.src < rig.host_in() + rig.bytes())
        return "upload of input rows " + rows(node.src, rig.host_in());
    if (node.dst >= host_out && node.dst < host_out + rig.bytes())
        return "download of output rows " + rows(node.dst, host_out);
    return "copy of " + std::to_string(node.bytes) + " bytes on the GPU";
}

}  // namespace

OrderCheck check_transfer_order(TransferLauncher launch, int width, int height, int taps, int chunks, int streams) {
    TransferRig rig(width, height, taps, chunks, streams);
    const TransferJob job = rig.job();
    const course::CapturedWork work = course::CapturedWork::capture(rig.streams(), [&] { launch(job); });
    const auto& nodes = work.nodes();
    const std::size_t n = nodes.size();
    std::vector<const void*> kernels;
    for (const auto& node : nodes)
        if (node.kind == course::CapturedWork::Kind::kernel) kernels.push_back(node.function);
    course::testing::check_kernels_are_own(kernels, "in the job's graph");

    // What the poison covers besides the images: every other device region a
    // copy or memset of the job writes (the filter in constant memory).
    std::vector<std::pair<void*, std::size_t>> extra;
    for (const auto& node : nodes)
        if (node.kind != course::CapturedWork::Kind::kernel && on_device(node.dst))
            extra.emplace_back(const_cast<char*>(node.dst), node.bytes);
    course::Stream stream;
    const auto run = [&](const std::vector<std::size_t>& order) {
        rig.poison(extra);
        work.run(order, stream.get());
        return std::vector<float>(rig.host_out(), rig.host_out() + rig.problem().pixels());
    };

    // The graph's own order: the job must be right.
    std::vector<std::size_t> own(n);
    for (std::size_t i = 0; i < n; ++i) own[i] = i;
    const std::vector<float> expected = run(own);
    const course::CheckResult right = rig.problem().check_output(expected.data());
    if (!right.ok)
        return {false, "the job, run node by node in the order its graph gives, is wrong: " + right.summary()};

    const auto differing = [&](const std::vector<float>& got) {
        std::size_t count = 0;
        for (std::size_t i = 0; i < got.size(); ++i)
            if (std::memcmp(&got[i], &expected[i], sizeof(float)) != 0) ++count;
        return count;
    };
    for (std::size_t x = 0; x < n; ++x) {
        // As early as it can run: what it waits for, then it, then the rest.
        std::vector<std::size_t> early = work.ancestors(x);
        early.push_back(x);
        for (std::size_t i = 0; i < n; ++i)
            if (i != x && !work.depends_on(x, i)) early.push_back(i);
        // The rest keeps the graph's order among itself, which is valid: a
        // node after x that depends on x comes after it either way.
        const std::size_t early_wrong = differing(run(early));
        if (early_wrong > 0)
            return {false, "run as early as its dependencies allow, the " + describe_node(nodes[x], rig) + " (node " +
                               std::to_string(x) + " of " + std::to_string(n) + ") gives " +
                               std::to_string(early_wrong) +
                               " wrong pixels: it reads what work it does not wait for writes (a kernel must wait "
                               "for the uploads of every input row it reads, halo included; a download for the "
                               "kernel that wrote its rows)"};
        // As late as it can run: everything that does not wait for it, then it.
        std::vector<std::size_t> late;
        for (std::size_t i = 0; i < n; ++i)
            if (i != x && !work.depends_on(i, x)) late.push_back(i);
        late.push_back(x);
        for (std::size_t i = 0; i < n; ++i)
            if (i != x && work.depends_on(i, x)) late.push_back(i);
        const std::size_t late_wrong = differing(run(late));
        if (late_wrong > 0)
            return {false, "run as late as the graph allows, the " + describe_node(nodes[x], rig) + " (node " +
                               std::to_string(x) + " of " + std::to_string(n) + ") gives " +
                               std::to_string(late_wrong) +
                               " wrong pixels: work that does not wait for it overwrites what it reads (a buffer "
                               "may be reused only after the work that last read it)"};
    }
    return {true, std::to_string(n) + " nodes, each run as early and as late as the graph allows: the same image"};
}

course::CheckResult check_first_stream_delayed(TransferLauncher launch, int width, int height, int taps, int chunks,
                                               int streams) {
    TransferRig rig(width, height, taps, chunks, streams);
    rig.poison();
    const TransferJob job = rig.job();
    enqueue_spin(rig.streams().front(), 50.0);
    launch(job);
    for (const cudaStream_t stream : rig.streams()) CUDA_CHECK(cudaStreamSynchronize(stream));
    return rig.problem().check_output(rig.host_out());
}

std::string transfer_graph(TransferLauncher launch, int width, int height, int taps, int chunks, int streams) {
    TransferRig rig(width, height, taps, chunks, streams);
    const TransferJob job = rig.job();
    const course::CapturedWork work = course::CapturedWork::capture(rig.streams(), [&] { launch(job); });
    return work.mermaid([&](std::size_t i) { return describe_node(work.nodes()[i], rig); });
}

void check_transfer_speed(TransferLauncher reference, TransferLauncher graded, Launcher filter,
                          const std::string& advice) {
    const std::vector<TransferStep> steps = {{8, "", reference}, {8, "", graded}};
    std::vector<TransferStep> race = steps;
    const std::string reference_title = course::testing::solution_title(8);
    const std::string graded_title = course::testing::graded_title(8);
    race[0].title = reference_title.c_str();
    race[1].title = graded_title.c_str();
    course::testing::check_speed_rule(
        "separable 08",
        [&] {
            course::Options options;
            options.size = "8192";
            options.extra = race_options();
            course::Ladder ladder = transfer_ladder(race, filter, course::TrackRun{options, harness(), 8});
            // Rows: pageable, pinned, the reference solution, the graded job, the link.
            const std::size_t graded_row = 3;
            course::testing::SpeedAttempt attempt;
            attempt.table = course::testing::mark_and_format(ladder, graded_row);
            REQUIRE_MESSAGE(ladder.all_ok(), attempt.table);
            attempt.measures.push_back(course::testing::time_against_reference(ladder, graded_row));
            return attempt;
        },
        advice);
}

}  // namespace separable::testing
