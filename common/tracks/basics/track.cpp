#include "tracks/basics/track.h"

#include "course/check.h"
#include "course/options.h"
#include "course/random.h"

namespace basics {

std::vector<float> reference(const std::vector<float>& a, const std::vector<float>& b) {
    std::vector<float> c(a.size());
    for (std::size_t i = 0; i < a.size(); ++i) c[i] = a[i] + b[i];
    return c;
}

Problem::Problem(std::size_t n, std::uint64_t seed, course::Offsets offsets)
    : n_(n), offsets_(offsets), seed_(seed), a_(n + offsets.a), b_(n + offsets.b), c_(n + offsets.c) {
    if (n == 0) throw course::Error("basics: n must be at least 1");
    use_inputs(0);
}

const Problem::Inputs& Problem::inputs(int set) {
    auto found = sets_.find(set);
    if (found != sets_.end()) return found->second;
    // Values in [-1, 1): sums cancel sometimes, none are zero by construction.
    const std::uint64_t seed = course::input_set_seed(seed_, set);
    Inputs inputs;
    inputs.a = course::random_floats(a_.size(), -1.0f, 1.0f, seed);
    inputs.b = course::random_floats(b_.size(), -1.0f, 1.0f, seed ^ 0x5bd1e995u);
    inputs.expected =
        reference(std::vector<float>(inputs.a.begin() + static_cast<std::ptrdiff_t>(offsets_.a), inputs.a.end()),
                  std::vector<float>(inputs.b.begin() + static_cast<std::ptrdiff_t>(offsets_.b), inputs.b.end()));
    return sets_.emplace(set, std::move(inputs)).first->second;
}

void Problem::use_inputs(int set) {
    current_ = &inputs(set);
    a_.upload(current_->a);
    b_.upload(current_->b);
}

course::KernelRun Problem::run(Launcher launch) {
    return course::KernelRun{
        [this, launch](cudaStream_t stream) { launch(a(), b(), c(), n_, stream); },
        [this](std::uint8_t pattern, cudaStream_t stream) { c_.fill_bytes(pattern, stream); },
        [this]() { return check(); },
        [this](int set, cudaStream_t) { use_inputs(set); },
    };
}

course::CheckResult Problem::check() const {
    const std::vector<float> got = c_.download();
    return course::compare_close(got.data() + offsets_.c, current_->expected.data(), n_, kTolerance);
}

namespace {

// The bandwidth ceiling: cudaMemcpyAsync device-to-device of as many bytes as
// a vector add moves (12 n: it reads 6 n and writes 6 n), so its time is
// directly comparable with the kernels'.
class CopyCeiling {
public:
    CopyCeiling(std::size_t n, std::uint64_t seed) : floats_(n + n / 2), src_(floats_), dst_(floats_) {
        expected_ = course::random_floats(floats_, -1.0f, 1.0f, seed ^ 0xc0e1);
        src_.upload(expected_);
    }
    course::KernelRun run() {
        return course::KernelRun{
            [this](cudaStream_t stream) {
                CUDA_CHECK(cudaMemcpyAsync(dst_.data(), src_.data(), src_.bytes(), cudaMemcpyDeviceToDevice, stream));
            },
            [this](std::uint8_t pattern, cudaStream_t stream) { dst_.fill_bytes(pattern, stream); },
            [this]() {
                const std::vector<float> got = dst_.download();
                return course::compare_close(got.data(), expected_.data(), got.size(), course::Tolerance{});
            },
        };
    }
    double bytes_moved() const { return 2.0 * static_cast<double>(src_.bytes()); }

private:
    std::size_t floats_;
    course::DeviceBuffer<float> src_, dst_;
    std::vector<float> expected_;
};

}  // namespace

std::size_t size_from(const course::Options& options) {
    return options.size.empty() ? kDefaultSize : static_cast<std::size_t>(course::parse_count(options.size, "--size"));
}

std::vector<course::Ladder> run_ladder(const std::vector<Step>& steps, const course::TrackRun& run) {
    const std::size_t n = size_from(run.options);
    // a, b, c, and the copy's source and destination (1.5 n floats each).
    course::require_device_memory(6 * n * sizeof(float), "n = " + course::describe_count(n) + " floats");

    course::Ladder ladder;
    ladder.track = "basics";
    ladder.problem = "c = a + b, n = " + course::describe_count(n) + " floats, " +
                     course::format_bytes(12.0 * static_cast<double>(n)) + " moved per run";
    ladder.unit = course::Unit::bandwidth;
    ladder.peak = run.harness.device.peak_dram_gbps;
    ladder.library_name = "copy";

    Problem problem(n, run.options.seed);
    for (const Step& step : steps) {
        const course::Rung rung = course::step_rung(step.number, step.title, run.student_step, problem.bytes_moved());
        ladder.rungs.push_back(course::measure(run.harness, rung, problem.run(step.launch)));
    }

    CopyCeiling copy(n, run.options.seed);
    const course::Rung rung = course::reference_rung("cudaMemcpy device to device, same bytes", copy.bytes_moved());
    ladder.rungs.push_back(course::measure(run.harness, rung, copy.run()));
    course::ceiling_from_row(ladder, ladder.rungs.size() - 1, "a device-to-device copy of the same bytes");
    course::enforce_ceiling(ladder);
    return {ladder};
}

}  // namespace basics
