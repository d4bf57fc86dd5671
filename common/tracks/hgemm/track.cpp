#include "tracks/hgemm/track.h"

#include "course/check.h"
#include "course/cublas_handle.h"
#include "course/options.h"
#include "course/parallel.h"
#include "course/random.h"

#include <cublas_v2.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

namespace hgemm {

double relative_tolerance(int K) { return 8.0 * std::sqrt(static_cast<double>(K)) * 0x1.0p-24; }

int tensor_flops_per_clock_per_sm(int cc_major, int cc_minor) {
    // Sources: tracks/hgemm/track.h.
    switch (cc_major * 10 + cc_minor) {
    case 70:
    case 75: return 1024;  // Volta, Turing: 8 tensor cores x 64 FMA
    case 80: return 2048;  // A100: 4 tensor cores x 256 FMA
    case 86:
    case 89: return 1024;  // GA10x, Ada: 4 tensor cores x 128 FMA
    case 90: return 4096;  // Hopper: twice the A100 per SM and clock
    default: return 0;
    }
}

double tensor_peak_gflops(int sm_count, int sm_clock_khz, int flops_per_clock_per_sm) {
    return static_cast<double>(sm_count) * flops_per_clock_per_sm * (sm_clock_khz * 1e3) / 1e9;
}

HalfValues random_halves(std::size_t count, std::uint64_t seed) {
    HalfValues values;
    values.as_float = course::random_floats(count, -1.0f, 1.0f, seed);
    values.as_half.resize(count);
    for (std::size_t i = 0; i < count; ++i) {
        values.as_half[i] = __float2half_rn(values.as_float[i]);
        values.as_float[i] = __half2float(values.as_half[i]);  // exactly the FP16 value
    }
    return values;
}

Problem::Problem(Shape shape, std::uint64_t seed, course::Offsets offsets)
    : shape_(make_shape(shape.M, shape.N, shape.K, "hgemm::Problem")), offsets_(offsets), seed_(seed),
      a_(static_cast<std::size_t>(shape.M) * shape.K + offsets.a),
      b_(static_cast<std::size_t>(shape.K) * shape.N + offsets.b),
      c_(static_cast<std::size_t>(shape.M) * shape.N + offsets.c) {
    use_inputs(0);
}

void Problem::use_inputs(int set) {
    auto found = sets_.find(set);
    if (found == sets_.end()) {
        // Uniform in [-1, 1], rounded to FP16: products of both signs, so dot
        // products cancel (the hard case for a tolerance), and no structure a
        // wrong kernel could match. The reference reads the same FP16 values.
        const std::uint64_t seed = course::input_set_seed(seed_, set);
        HalfValues a_values = random_halves(a_.size(), seed);
        HalfValues b_values = random_halves(b_.size(), seed ^ 0x5bd1e995u);
        const std::vector<float> a(a_values.as_float.begin() + static_cast<std::ptrdiff_t>(offsets_.a),
                                   a_values.as_float.end());
        const std::vector<float> b(b_values.as_float.begin() + static_cast<std::ptrdiff_t>(offsets_.b),
                                   b_values.as_float.end());
        Inputs inputs;
        inputs.a = std::move(a_values.as_half);
        inputs.b = std::move(b_values.as_half);
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

void cublas_gemm_ex(const __half* A, const __half* B, float* C, int M, int N, int K, cudaStream_t stream) {
    // The default math mode: FP16 inputs run on the tensor cores.
    static course::CublasHandle handle(CUBLAS_DEFAULT_MATH);
    const float alpha = 1.0f, beta = 0.0f;
    CUBLAS_CHECK(cublasSetStream(handle.get(), stream));
    // Column-major, cuBLAS sees our row-major B (K x N) as B^T (N x K, leading
    // dimension N), A as A^T (K x M, leading dimension K), and writes C^T
    // (N x M, leading dimension N): C^T = B^T * A^T, which is C = A * B. FP16
    // in, FP32 out, FP32 accumulation, cuBLAS's own choice of algorithm.
    CUBLAS_CHECK(cublasGemmEx(handle.get(), CUBLAS_OP_N, CUBLAS_OP_N, N, M, K, &alpha, B, CUDA_R_16F, N, A, CUDA_R_16F,
                              K, &beta, C, CUDA_R_32F, N, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT));
}

Shape shape_from(const course::Options& options) {
    if (options.size.empty()) return Shape{kDefaultSize, kDefaultSize, kDefaultSize};
    const std::vector<std::uint64_t> dims = course::parse_dims(options.size, 3, "--size");
    return make_shape(dims[0], dims[1], dims[2], "--size " + options.size);
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

std::string step_missing(const Step& step, const course::DeviceInfo& device) {
    return course::capability_missing(device.cc_major, device.cc_minor, step.needs_cc,
                                      "hgemm step " + course::step_label(step.number) + " (" + step.title + ")");
}

std::vector<std::string> mma_sync_ceiling_notes(const MmaCeiling& ceiling, double peak,
                                                const std::vector<course::Rung>& rungs) {
    if (!(ceiling.time.median_ms > 0) || !(ceiling.flops > 0))
        throw course::Error("hgemm: the mma.sync ceiling measured no time or no work: the measurement is wrong");
    const double gflops = ceiling.flops / (ceiling.time.median_ms * 1e-3) / 1e9;
    if (peak > 0 && gflops > peak * course::kPeakCeilingMargin)
        throw course::Error("hgemm: the mma.sync ceiling measured " + course::format_fixed(gflops, 1) +
                            " GFLOP/s, above the dense peak of " + course::format_fixed(peak, 1) +
                            " GFLOP/s: the measurement is wrong");
    std::string note = "ceiling of steps 01 to 06 (WMMA and mma.sync): mma.sync m16n8k16 from registers alone, no "
                       "memory traffic, " +
                       course::format_fixed(ceiling.time.median_ms, 4) + " ms for " +
                       course::format_fixed(ceiling.flops / 1e9, 1) + " GFLOP = " + course::format_fixed(gflops, 1) +
                       " GFLOP/s";
    if (peak > 0) note += " (" + course::format_fixed(100.0 * gflops / peak, 1) + "% of the peak)";
    std::vector<std::string> notes = {note};
    const course::Rung* fastest = nullptr;
    for (const course::Rung& rung : rungs)
        if (!rung.library && rung.check.ok && std::stoi(rung.label) <= kLastMmaSyncStep &&
            (fastest == nullptr || course::throughput(rung) > course::throughput(*fastest)))
            fastest = &rung;
    if (fastest != nullptr)
        notes.push_back("step " + fastest->label + ", the fastest of them, reaches " +
                        course::format_fixed(100.0 * course::throughput(*fastest) / gflops, 1) + "% of that ceiling");
    return notes;
}

namespace {

// The ceiling of steps 01 to 06, measured here, and its notes (above).
// Nothing is timed in a profiling pass.
void add_mma_sync_ceiling(course::Ladder& ladder, course::Harness& harness, double peak) {
    if (harness.profile_pass) return;
    for (std::string& note : mma_sync_ceiling_notes(measure_mma_sync_ceiling(harness), peak, ladder.rungs))
        ladder.notes.push_back(std::move(note));
}

}  // namespace

std::vector<course::Ladder> run_ladder(const std::vector<Step>& steps, const course::TrackRun& run) {
    const Shape shape = shape_from(run.options);
    const double halves = static_cast<double>(shape.M) * shape.K + static_cast<double>(shape.K) * shape.N;
    const double floats = static_cast<double>(shape.M) * shape.N;
    course::require_device_memory(static_cast<std::size_t>(halves * sizeof(__half) + floats * sizeof(float)),
                                  "A, B and C of " + shape.describe());

    const course::DeviceInfo& device = run.harness.device;
    const double peak = tensor_peak_gflops(device.sm_count, device.sm_clock_khz,
                                           tensor_flops_per_clock_per_sm(device.cc_major, device.cc_minor));

    Problem problem(shape, run.options.seed);
    course::Ladder ladder;
    ladder.track = "hgemm";
    ladder.problem = "C = A * B, FP16 in, FP32 accumulate and out, M x N x K = " + shape.describe() + ", " +
                     course::gemm::describe_flops(shape.flops()) + " per run; " + problem.check_description();
    ladder.unit = course::Unit::flops;
    ladder.peak = peak;
    ladder.library_name = "cuBLAS";
    ladder.extra_columns = {"regs", "smem/block"};

    for (const Step& step : steps) {
        const std::string missing = step_missing(step, device);
        if (!missing.empty()) {
            ladder.notes.push_back(missing);
            continue;
        }
        course::Rung rung = course::step_rung(step.number, step.title, run.student_step, shape.flops());
        rung.extra_values = resource_columns(step.attributes());
        ladder.rungs.push_back(course::measure(run.harness, rung, problem.run(step.launch)));
    }

    course::Rung rung =
        course::reference_rung("cuBLAS cublasGemmEx, FP16 in, FP32 compute and out (tensor cores)", shape.flops());
    rung.extra_values = {"-", "-"};
    ladder.rungs.push_back(course::measure(run.harness, rung, problem.run(cublas_gemm_ex)));
    if (peak > 0) {
        course::set_ceiling(ladder, peak, "the GPU's dense FP16 tensor-core peak (FP32 accumulate)",
                            course::kPeakCeilingMargin);
        course::enforce_ceiling(ladder);
    } else {
        ladder.notes.push_back("no tensor-core peak is known for " + device.arch() +
                               " (tracks/hgemm/track.h): no % peak column, and no ceiling checked");
    }
    add_mma_sync_ceiling(ladder, run.harness, peak);
    return {ladder};
}

}  // namespace hgemm
