#include "tracks/hgemm/track.h"

#include "course/check.h"
#include "course/options.h"
#include "course/parallel.h"
#include "course/random.h"

#include <cublas_v2.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

// A cuBLAS call that did not return CUBLAS_STATUS_SUCCESS: the same one-line
// report as CUDA_CHECK gives for the runtime.
#define CUBLAS_CHECK(expression)                                                                              \
    do {                                                                                                      \
        const cublasStatus_t hgemm_status_ = (expression);                                                    \
        if (hgemm_status_ != CUBLAS_STATUS_SUCCESS)                                                           \
            throw course::Error(std::string(__FILE__) + ":" + std::to_string(__LINE__) + ": " + #expression + \
                                " failed: " + cublasGetStatusName(hgemm_status_) + " (" +                     \
                                cublasGetStatusString(hgemm_status_) + ")");                                  \
    } while (0)

namespace hgemm {

namespace {

constexpr std::uint64_t kInt32Limit = std::uint64_t{1} << 31;

std::string describe_flops(double flops) {
    char text[48];
    if (flops >= 1e9)
        std::snprintf(text, sizeof text, "%.1f GFLOP", flops / 1e9);
    else if (flops >= 1e6)
        std::snprintf(text, sizeof text, "%.1f MFLOP", flops / 1e6);
    else
        std::snprintf(text, sizeof text, "%.0f FLOP", flops);
    return text;
}

// One cuBLAS handle per program, created on first use. Its destructor runs at
// exit before the CUDA runtime's own clean-up (it was registered after the
// runtime started), so compute-sanitizer's leak check sees nothing left.
class CublasHandle {
public:
    CublasHandle() {
        CUBLAS_CHECK(cublasCreate(&handle_));
        // The default math mode: FP16 inputs run on the tensor cores.
        CUBLAS_CHECK(cublasSetMathMode(handle_, CUBLAS_DEFAULT_MATH));
    }
    ~CublasHandle() {
        if (handle_ != nullptr) cublasDestroy(handle_);
    }
    CublasHandle(const CublasHandle&) = delete;
    CublasHandle& operator=(const CublasHandle&) = delete;
    cublasHandle_t get() const { return handle_; }

private:
    cublasHandle_t handle_ = nullptr;
};

}  // namespace

std::string Shape::describe() const {
    return std::to_string(M) + " x " + std::to_string(N) + " x " + std::to_string(K);
}

Shape make_shape(std::uint64_t M, std::uint64_t N, std::uint64_t K, const std::string& what) {
    if (M == 0 || N == 0 || K == 0) throw course::UsageError(what + ": every size must be at least 1");
    const auto check = [&](std::uint64_t rows, std::uint64_t cols, const char* name) {
        if (rows >= kInt32Limit || cols >= kInt32Limit || rows * cols >= kInt32Limit)
            throw course::UsageError(what + ": " + name + " would be " + std::to_string(rows) + " x " +
                                     std::to_string(cols) +
                                     "; the kernels index with 32-bit ints, so each matrix "
                                     "must have fewer than 2^31 elements");
    };
    check(M, K, "A (M x K)");
    check(K, N, "B (K x N)");
    check(M, N, "C (M x N)");
    return Shape{static_cast<int>(M), static_cast<int>(N), static_cast<int>(K)};
}

double relative_tolerance(int K) { return 8.0 * std::sqrt(static_cast<double>(K)) * 0x1.0p-24; }

bool checks_every_element(Shape shape) {
    const std::uint64_t outputs = static_cast<std::uint64_t>(shape.M) * static_cast<std::uint64_t>(shape.N);
    return outputs <= (std::uint64_t{1} << 20) &&
           outputs * static_cast<std::uint64_t>(shape.K) <= (std::uint64_t{1} << 30);
}

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

std::vector<std::size_t> sample_indices(Shape shape, std::size_t samples, std::uint64_t seed) {
    const std::size_t M = static_cast<std::size_t>(shape.M), N = static_cast<std::size_t>(shape.N);
    std::vector<std::size_t> indices;
    indices.reserve(samples + M + N);
    for (std::size_t col = 0; col < N; ++col) indices.push_back((M - 1) * N + col);  // the last row
    for (std::size_t row = 0; row < M; ++row) indices.push_back(row * N + N - 1);    // the last column
    course::Rng rng(seed);
    for (std::size_t s = 0; s < samples; ++s)
        indices.push_back(static_cast<std::size_t>(rng.integer(0, static_cast<std::int64_t>(M * N) - 1)));
    std::sort(indices.begin(), indices.end());
    indices.erase(std::unique(indices.begin(), indices.end()), indices.end());
    return indices;
}

Reference reference_at(const std::vector<float>& a, const std::vector<float>& b, Shape shape,
                       std::vector<std::size_t> indices) {
    const std::size_t N = static_cast<std::size_t>(shape.N), K = static_cast<std::size_t>(shape.K);
    if (a.size() != static_cast<std::size_t>(shape.M) * K || b.size() != K * N)
        throw course::Error("hgemm::reference_at: the inputs do not match the shape " + shape.describe());
    // B transposed, so that each dot product reads both inputs contiguously.
    std::vector<float> bt(K * N);
    course::parallel_for(N, [&](std::size_t begin, std::size_t end) {
        for (std::size_t col = begin; col < end; ++col)
            for (std::size_t k = 0; k < K; ++k) bt[col * K + k] = b[k * N + col];
    });
    Reference reference;
    reference.shape = shape;
    reference.want.resize(indices.size());
    reference.scale.resize(indices.size());
    course::parallel_for(indices.size(), [&](std::size_t begin, std::size_t end) {
        for (std::size_t s = begin; s < end; ++s) {
            const float* row = &a[indices[s] / N * K];
            const float* col = &bt[indices[s] % N * K];
            double sum = 0, scale = 0;
            for (std::size_t k = 0; k < K; ++k) {
                const double term = static_cast<double>(row[k]) * static_cast<double>(col[k]);
                sum += term;
                scale += std::fabs(term);
            }
            reference.want[s] = sum;
            reference.scale[s] = scale;
        }
    });
    reference.indices = std::move(indices);
    return reference;
}

Reference reference_all(const std::vector<float>& a, const std::vector<float>& b, Shape shape) {
    const std::size_t M = static_cast<std::size_t>(shape.M), N = static_cast<std::size_t>(shape.N),
                      K = static_cast<std::size_t>(shape.K);
    if (a.size() != M * K || b.size() != K * N)
        throw course::Error("hgemm::reference_all: the inputs do not match the shape " + shape.describe());
    Reference reference;
    reference.shape = shape;
    reference.every_element = true;
    reference.want.assign(M * N, 0.0);
    reference.scale.assign(M * N, 0.0);
    // Row by row, k outside j: the innermost loop walks a row of B and a row
    // of the result, both contiguous, so the compiler vectorizes it.
    course::parallel_for(M, [&](std::size_t begin, std::size_t end) {
        for (std::size_t row = begin; row < end; ++row) {
            double* want = &reference.want[row * N];
            double* scale = &reference.scale[row * N];
            for (std::size_t k = 0; k < K; ++k) {
                const double x = a[row * K + k];
                const double abs_x = std::fabs(x);
                const float* b_row = &b[k * N];
                for (std::size_t col = 0; col < N; ++col) {
                    want[col] += x * static_cast<double>(b_row[col]);
                    scale[col] += abs_x * std::fabs(static_cast<double>(b_row[col]));
                }
            }
        }
    });
    return reference;
}

course::CheckResult compare_with_reference(const float* c, const Reference& reference) {
    const double rel = relative_tolerance(reference.shape.K);
    course::CheckResult result;
    if (reference.every_element) {
        result = course::compare_scaled(c, reference.want.data(), reference.scale.data(), reference.want.size(), rel);
    } else {
        std::vector<float> got(reference.indices.size());
        for (std::size_t s = 0; s < got.size(); ++s) got[s] = c[reference.indices[s]];
        result = course::compare_scaled(got.data(), reference.want.data(), reference.scale.data(), got.size(), rel);
        if (!result.ok) result.first_bad = reference.indices[result.first_bad];
    }
    if (!result.ok) {
        const std::size_t N = static_cast<std::size_t>(reference.shape.N);
        result.first_detail +=
            " (row " + std::to_string(result.first_bad / N) + ", col " + std::to_string(result.first_bad % N) + ")";
    }
    return result;
}

dim3 grid_for(int x_extent, int x_tile, int y_extent, int y_tile) {
    const long long x_blocks = (static_cast<long long>(x_extent) + x_tile - 1) / x_tile;
    const long long y_blocks = (static_cast<long long>(y_extent) + y_tile - 1) / y_tile;
    if (y_blocks > 65535)
        throw course::Error("the grid would need " + std::to_string(y_blocks) +
                            " blocks in y, more than CUDA allows (65535): choose a smaller size");
    return dim3(static_cast<unsigned int>(x_blocks), static_cast<unsigned int>(y_blocks));
}

Problem::Problem(Shape shape, std::uint64_t seed, std::size_t offset)
    : shape_(make_shape(shape.M, shape.N, shape.K, "hgemm::Problem")), offset_(offset), seed_(seed),
      a_(static_cast<std::size_t>(shape.M) * shape.K + offset),
      b_(static_cast<std::size_t>(shape.K) * shape.N + offset),
      c_(static_cast<std::size_t>(shape.M) * shape.N + offset) {
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
        const auto from = static_cast<std::ptrdiff_t>(offset_);
        const std::vector<float> a(a_values.as_float.begin() + from, a_values.as_float.end());
        const std::vector<float> b(b_values.as_float.begin() + from, b_values.as_float.end());
        Inputs inputs;
        inputs.a = std::move(a_values.as_half);
        inputs.b = std::move(b_values.as_half);
        inputs.reference =
            checks_every_element(shape_)
                ? reference_all(a, b, shape_)
                : reference_at(a, b, shape_, sample_indices(shape_, kSampledElements, seed ^ 0x9e3779b9u));
        found = sets_.emplace(set, std::move(inputs)).first;
    }
    current_ = &found->second;
    a_.upload(current_->a);
    b_.upload(current_->b);
}

std::string Problem::check_description() const {
    if (current_->reference.every_element) return "every element checked";
    return std::to_string(current_->reference.indices.size()) + " elements checked (" +
           std::to_string(kSampledElements) + " random, the last row and the last column)";
}

course::KernelRun Problem::run(Launcher launch) {
    return course::KernelRun{
        [this, launch](cudaStream_t stream) { launch(a(), b(), c(), shape_.M, shape_.N, shape_.K, stream); },
        [this](std::uint8_t pattern, cudaStream_t stream) { c_.fill_bytes(pattern, stream); },
        [this]() { return check(); },
        [this](int set, cudaStream_t stream) {
            CUDA_CHECK(cudaStreamSynchronize(stream));  // nothing may still read A and B
            use_inputs(set);
        },
    };
}

course::CheckResult Problem::check() const {
    const std::vector<float> got = c_.download();
    return compare_with_reference(got.data() + offset_, current_->reference);
}

void cublas_gemm_ex(const __half* A, const __half* B, float* C, int M, int N, int K, cudaStream_t stream) {
    static CublasHandle handle;
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
                     describe_flops(shape.flops()) + " per run; " + problem.check_description();
    ladder.unit = course::Unit::flops;
    ladder.peak = peak;
    ladder.library_name = "cuBLAS";
    ladder.extra_columns = {"regs", "smem/block"};

    for (const Step& step : steps) {
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
    return {ladder};
}

}  // namespace hgemm
