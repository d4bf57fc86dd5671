#include "tracks/matmul/track.h"

#include "course/check.h"
#include "course/cublas_handle.h"
#include "course/options.h"
#include "course/parallel.h"
#include "course/random.h"
#include "course/sweep.h"

#include <cublas_v2.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <optional>
#include <utility>

namespace matmul {

double relative_tolerance(int K) { return 4.0 * std::sqrt(static_cast<double>(K)) * 0x1.0p-24; }

Problem::Problem(Shape shape, std::uint64_t seed, course::Offsets offsets)
    : shape_(make_shape(shape.M, shape.N, shape.K, "matmul::Problem")), offsets_(offsets), seed_(seed),
      a_(static_cast<std::size_t>(shape.M) * shape.K + offsets.a),
      b_(static_cast<std::size_t>(shape.K) * shape.N + offsets.b),
      c_(static_cast<std::size_t>(shape.M) * shape.N + offsets.c) {
    use_inputs(0);
}

void Problem::use_inputs(int set) {
    auto found = sets_.find(set);
    if (found == sets_.end()) {
        // Uniform in [-1, 1]: products of both signs, so dot products cancel
        // (the hard case for a tolerance), and no structure a wrong kernel
        // could match.
        const std::uint64_t seed = course::input_set_seed(seed_, set);
        Inputs inputs;
        inputs.a = course::random_floats(a_.size(), -1.0f, 1.0f, seed);
        inputs.b = course::random_floats(b_.size(), -1.0f, 1.0f, seed ^ 0x5bd1e995u);
        const std::vector<float> a(inputs.a.begin() + static_cast<std::ptrdiff_t>(offsets_.a), inputs.a.end());
        const std::vector<float> b(inputs.b.begin() + static_cast<std::ptrdiff_t>(offsets_.b), inputs.b.end());
        inputs.reference = course::gemm::reference_for(a, b, shape_, kSampledElements, seed ^ 0x9e3779b9u);
        found = sets_.emplace(set, std::move(inputs)).first;
    }
    current_ = &found->second;
    a_.upload(current_->a);
    b_.upload(current_->b);
}

std::string Problem::check_description() const {
    return course::gemm::describe_check(current_->reference, kSampledElements);
}

course::KernelRun Problem::run(Launcher launch) {
    return course::KernelRun{
        [this, launch](cudaStream_t stream) { launch(a(), b(), c(), shape_.M, shape_.N, shape_.K, stream); },
        [this](std::uint8_t pattern, cudaStream_t stream) { c_.fill_bytes(pattern, stream); },
        [this]() { return check(); },
        [this](int set, cudaStream_t) { use_inputs(set); },
    };
}

course::CheckResult Problem::check() const {
    const std::vector<float> got = c_.download();
    return compare_with_reference(got.data() + offsets_.c, current_->reference);
}

void cublas_sgemm(const float* A, const float* B, float* C, int M, int N, int K, cudaStream_t stream) {
    static course::CublasHandle handle(CUBLAS_PEDANTIC_MATH);
    const float alpha = 1.0f, beta = 0.0f;
    CUBLAS_CHECK(cublasSetStream(handle.get(), stream));
    // Column-major, cuBLAS sees our row-major B (K x N) as B^T (N x K, leading
    // dimension N), A as A^T (K x M, leading dimension K), and writes C^T
    // (N x M, leading dimension N): C^T = B^T * A^T, which is C = A * B.
    CUBLAS_CHECK(cublasSgemm(handle.get(), CUBLAS_OP_N, CUBLAS_OP_N, N, M, K, &alpha, B, N, A, K, &beta, C, N));
}

Shape shape_from(const course::Options& options) {
    if (options.size.empty()) return Shape{kDefaultSize, kDefaultSize, kDefaultSize};
    const std::vector<std::uint64_t> dims = course::parse_dims(options.size, 3, "--size");
    return make_shape(dims[0], dims[1], dims[2], "--size " + options.size);
}

course::OptionSpec steps_option() {
    return {"steps", "LIST",
            "the steps to time: N, or FIRST-LAST (cuBLAS always runs; the first steps take minutes at 8192^3)", "all"};
}

StepRange steps_from(const course::Options& options) {
    const std::string& text = options.option("steps");
    if (text == "all") return StepRange{};
    const std::size_t dash = text.find('-');
    const auto step = [&](const std::string& part) {
        if (part.empty()) throw course::UsageError("--steps: \"" + text + "\" is not N or FIRST-LAST");
        const std::uint64_t number = course::parse_count(part, "--steps");
        if (number > 99) throw course::UsageError("--steps: \"" + part + "\" is not a step number (1 to 99)");
        return static_cast<int>(number);
    };
    if (dash == std::string::npos) {
        const int number = step(text);
        return StepRange{number, number};
    }
    const StepRange range{step(text.substr(0, dash)), step(text.substr(dash + 1))};
    if (range.first > range.last) throw course::UsageError("--steps: \"" + text + "\" ends before it starts");
    return range;
}

std::vector<std::string> resource_columns(const cudaFuncAttributes& attributes) {
    std::string registers = std::to_string(attributes.numRegs);
    // Local memory is where per-thread arrays go when they do not fit in
    // registers (or are indexed in ways registers cannot be): slow, and
    // usually a mistake in a register-blocked kernel.
    if (attributes.localSizeBytes > 0)
        registers += " (+" + course::format_bytes(static_cast<double>(attributes.localSizeBytes)) + " local)";
    return {registers, course::format_bytes(static_cast<double>(attributes.sharedSizeBytes))};
}

std::vector<course::Ladder> run_ladder(const std::vector<Step>& steps, const course::TrackRun& run) {
    const Shape shape = shape_from(run.options);
    const double elements = static_cast<double>(shape.M) * shape.K + static_cast<double>(shape.K) * shape.N +
                            static_cast<double>(shape.M) * shape.N;
    course::require_device_memory(static_cast<std::size_t>(elements) * sizeof(float),
                                  "A, B and C of " + shape.describe());

    Problem problem(shape, run.options.seed);
    course::Ladder ladder;
    ladder.track = "matmul";
    ladder.problem = "C = A * B, FP32, M x N x K = " + shape.describe() + ", " +
                     course::gemm::describe_flops(shape.flops()) + " per run; " + problem.check_description();
    ladder.unit = course::Unit::flops;
    ladder.peak = run.harness.device.peak_fp32_gflops;
    ladder.library_name = "cuBLAS";
    ladder.extra_columns = {"regs", "smem/block"};

    const StepRange range = steps_from(run.options);
    for (const Step& step : steps) {
        if (!range.contains(step.number)) continue;
        const course::Rung rung = course::step_rung(step.number, step.title, run.student_step, shape.flops());
        course::Rung measured = course::measure(run.harness, rung, problem.run(step.launch));
        // Asked after the runs: a tuned step reports the configuration it
        // picked at its first launch.
        measured.extra_values = resource_columns(step.attributes());
        ladder.rungs.push_back(std::move(measured));
    }

    course::Rung rung = course::reference_rung("cuBLAS SGEMM, FP32 (pedantic: no tensor cores)", shape.flops());
    rung.extra_values = {"-", "-"};
    ladder.rungs.push_back(course::measure(run.harness, rung, problem.run(cublas_sgemm)));
    course::set_ceiling(ladder, run.harness.device.peak_fp32_gflops, "the GPU's FP32 peak", course::kPeakCeilingMargin);
    course::enforce_ceiling(ladder);
    return {ladder};
}

std::vector<course::Sweep> run_config_sweeps(const std::vector<TunedStep>& steps, const course::TrackRun& run) {
    const Shape shape = shape_from(run.options);
    const StepRange range = steps_from(run.options);
    std::vector<course::Sweep> sweeps;
    for (const TunedStep& step : steps) {
        if (!range.contains(step.number)) continue;
        Problem problem(shape, run.options.seed);
        const std::vector<TileConfig> configs = step.configs();
        course::Sweep sweep;
        sweep.track = "matmul";
        sweep.lesson = course::step_label(step.number);
        sweep.title = "step " + course::step_label(step.number) + "'s tile configurations, each alone";
        sweep.problem = "C = A * B, FP32, M x N x K = " + shape.describe() + ", " +
                        course::gemm::describe_flops(shape.flops()) + " per run; " + problem.check_description();
        sweep.parameter = "configuration (BM x BN x BK, warp and lane tiles, stages, A's copies, threads)";
        sweep.student = step.number == run.student_step;
        sweep.unit = course::Unit::flops;
        sweep.peak = run.harness.device.peak_fp32_gflops;
        sweep.series = {{"time vs the fastest", course::SeriesKind::ratio},
                        {"regs", course::SeriesKind::count},
                        {"smem/block (bytes)", course::SeriesKind::count}};
        std::vector<int> measured;  // the index in `configs` of each point
        for (std::size_t i = 0; i < configs.size(); ++i) {
            const TileConfig& config = configs[i];
            if (config.shared_bytes > run.harness.device.shared_memory_per_block_optin) {
                sweep.notes.push_back(config.name + ": not run, its " + std::to_string(config.shared_bytes) +
                                      " bytes of shared memory per block are more than this GPU allows");
                continue;
            }
            course::SweepPoint point = course::sweep_point(static_cast<double>(i), config.name, shape.flops());
            point = course::measure_point(run.harness, point, problem.run(config.launch),
                                          "step " + course::step_label(step.number) + ", " + config.name);
            const cudaFuncAttributes attributes = config.attributes();
            point.values = {std::nullopt, static_cast<double>(attributes.numRegs),
                            static_cast<double>(attributes.sharedSizeBytes)};
            sweep.points.push_back(point);
            measured.push_back(static_cast<int>(i));
        }
        double fastest = 0;
        for (const course::SweepPoint& point : sweep.points)
            if (point.check.ok && point.time.median_ms > 0 && (fastest == 0 || point.time.median_ms < fastest))
                fastest = point.time.median_ms;
        for (course::SweepPoint& point : sweep.points)
            if (fastest > 0 && point.check.ok && point.time.median_ms > 0)
                point.values[0] = point.time.median_ms / fastest;
        // The pick, for the ladder's problem: its pointers are aligned as
        // this sweep's (both cudaMalloc'd, no offset).
        const int chosen = step.choice(problem.a(), problem.b(), problem.c(), shape.M, shape.N, shape.K);
        for (std::size_t p = 0; p < sweep.points.size(); ++p)
            if (measured[p] == chosen) sweep.points[p].label += " (picked)";
        sweep.notes.push_back(
            chosen < 0 ? "the launcher has picked no configuration for this shape"
                       : "(picked): the configuration the launcher chose for this shape at its first launch, by "
                         "timing every configuration that fits once (a warm-up and the best of 3 runs, no L2 "
                         "flush); this sweep measures each again, as the ladder measures a rung");
        sweeps.push_back(std::move(sweep));
    }
    return sweeps;
}

}  // namespace matmul
