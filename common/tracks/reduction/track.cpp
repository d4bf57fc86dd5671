#include "tracks/reduction/track.h"

#include "course/ceilings.h"
#include "course/options.h"
#include "course/random.h"

namespace reduction {

long long reference(const std::vector<int>& values) {
    long long total = 0;
    for (int v : values) total += v;
    return total;
}

Problem::Problem(std::size_t n, std::uint64_t seed, std::size_t offset)
    : n_(n), offset_(offset), input_(n + offset), sum_(1), scratch_(scratch_elements(n)), seed_(seed) {
    if (n == 0) throw course::Error("reduction: n must be at least 1");
    use_inputs(0);
}

void Problem::use_inputs(int set) {
    auto found = sets_.find(set);
    if (found == sets_.end()) {
        std::vector<int> values =
            course::random_ints(n_ + offset_, -(1 << 30), (1 << 30) - 1, course::input_set_seed(seed_, set));
        sums_[set] = reference(std::vector<int>(values.begin() + static_cast<std::ptrdiff_t>(offset_), values.end()));
        found = sets_.emplace(set, std::move(values)).first;
    }
    input_.upload(found->second);
    expected_ = sums_.at(set);
}

course::KernelRun Problem::run(Launcher launch) {
    return course::KernelRun{
        [this, launch](cudaStream_t stream) { launch(input(), n_, sum_.data(), scratch_.data(), stream); },
        [this](std::uint8_t pattern, cudaStream_t stream) { sum_.fill_bytes(pattern, stream); },
        [this]() { return check(); },
        [this](int set, cudaStream_t) { use_inputs(set); },
        // The contract (kernels.h): zeroed scratch before a step's first
        // launch, and never again: another step may have left partial sums
        // there, but a step's own counters are its own to reset.
        [this](cudaStream_t stream) { scratch_.fill_bytes(0, stream); },
    };
}

course::CheckResult Problem::check() const {
    const std::vector<long long> got = sum_.download();
    return course::compare_exact(got.data(), &expected_, 1);
}

const HarrisFigure* harris_g80(int step) {
    // M. Harris, "Optimizing Parallel Reduction in CUDA", 2^22 ints on a
    // GeForce 8800 GTX, as quoted in Mueller and Ha's slides (SPIE Medical
    // Imaging 2016).
    static const HarrisFigure figures[] = {
        {8.054, 2.083},  {3.456, 4.854},  {1.722, 9.741},  {0.965, 17.377},
        {0.536, 31.289}, {0.381, 43.996}, {0.268, 62.671},
    };
    return step >= 1 && step <= 7 ? &figures[step - 1] : nullptr;
}

std::size_t size_from(const course::Options& options) {
    return options.size.empty() ? kDefaultSize : static_cast<std::size_t>(course::parse_count(options.size, "--size"));
}

std::vector<course::Ladder> run_ladder(const std::vector<Step>& steps, const course::TrackRun& run) {
    const std::size_t n = size_from(run.options);
    // Input, the steps' scratch, CUB's output and temporary storage, the read sweep.
    course::require_device_memory(2 * 4 * n + 8 * scratch_elements(n) + (64u << 20),
                                  "n = " + course::describe_count(n) + " ints");

    course::Ladder ladder;
    ladder.track = "reduction";
    ladder.problem = "sum of n = " + course::describe_count(n) + " ints into a 64-bit total, " +
                     course::format_bytes(4.0 * static_cast<double>(n)) + " read per run";
    ladder.unit = course::Unit::bandwidth;
    ladder.peak = run.harness.device.peak_dram_gbps;
    ladder.library_name = "CUB";
    ladder.extra_columns = {"G80 ms", "G80 GB/s"};

    Problem problem(n, run.options.seed);
    for (const Step& step : steps) {
        course::Rung rung = course::step_rung(step.number, step.title, run.student_step, problem.bytes_read());
        if (const HarrisFigure* g80 = harris_g80(step.number))
            rung.extra_values = {course::format_fixed(g80->ms, 3), course::format_fixed(g80->gbps, 3)};
        ladder.rungs.push_back(course::measure(run.harness, rung, problem.run(step.launch)));
    }

    course::DeviceBuffer<long long> cub_sum(1);
    CubSum cub(problem.input(), n, cub_sum.data());
    const course::Rung rung = course::reference_rung("CUB DeviceReduce::Sum", problem.bytes_read());
    ladder.rungs.push_back(
        course::measure(run.harness, rung,
                        course::KernelRun{
                            [&](cudaStream_t stream) { cub.enqueue(stream); },
                            [&](std::uint8_t pattern, cudaStream_t stream) { cub_sum.fill_bytes(pattern, stream); },
                            [&]() {
                                const auto got = cub_sum.download();
                                const long long want = problem.expected();
                                return course::compare_exact(got.data(), &want, 1);
                            },
                        }));

    const course::TimingStats sweep = course::measure_read_sweep(run.harness, 4 * n);
    const double sweep_gbps = 4.0 * static_cast<double>(n) / (sweep.median_ms * 1e-3) / 1e9;
    course::set_ceiling(ladder, sweep_gbps, "a read-only sweep of the same bytes", course::kMeasuredCeilingMargin);
    course::enforce_ceiling(ladder);
    ladder.notes.push_back(
        "ceiling: a read-only sweep of the same " + course::format_bytes(4.0 * static_cast<double>(n)) + " takes " +
        course::format_fixed(sweep.median_ms, 4) + " ms = " + course::format_fixed(sweep_gbps, 1) + " GB/s (" +
        course::format_fixed(100.0 * sweep_gbps / run.harness.device.peak_dram_gbps, 1) + "% of peak)");
    if (ladder.rungs.size() >= 2) {
        const course::Rung& last = ladder.rungs[ladder.rungs.size() - 2];
        if (last.check.ok)
            ladder.notes.push_back("step " + last.label + " reaches " +
                                   course::format_fixed(100.0 * course::throughput(last) / sweep_gbps, 1) +
                                   "% of that ceiling");
    }
    ladder.notes.push_back("G80 columns: M. Harris's figures (2007) for 2^22 ints on a GeForce 8800 GTX, as quoted by "
                           "Mueller and Ha (SPIE Medical Imaging 2016)");
    return {ladder};
}

}  // namespace reduction
