// The matmul track's machinery: the problem on the GPU, the CPU reference,
// the check, cuBLAS SGEMM in plain FP32 (the library rung) and the ladder.
// What a step's kernel.cu needs is in tracks/matmul/kernels.h.
//
// Work per run: 2 * M * N * K floating-point operations (one multiply and one
// add per term of each dot product), so the ladder is in GFLOP/s against the
// device's FP32 peak.
//
// Checking. Each element of C is a sum of K products, rounded in FP32 at
// every step, so no kernel matches a double-precision reference exactly, and
// two correct kernels that add in different orders differ from each other.
// The rule (relative_tolerance below):
//
//     |got - want| <= rel(K) * sum_k |a_ik * b_kj|,   rel(K) = 4 * sqrt(K) * 2^-24
//
//  * want is the dot product in double precision, on the CPU;
//  * sum_k |a_ik * b_kj|, the "scale", is what rounding errors grow with:
//    every addition may be off by half a unit in the last place of the
//    partial sum (2^-24 relative), and the partial sums are bounded by the
//    scale. A tolerance relative to |want| would be wrong: with inputs of both
//    signs the terms cancel, |want| is small, the rounding errors are not;
//  * the worst case over all orders of summation is K * 2^-24 * scale; errors
//    that do not conspire grow like sqrt(K) * 2^-24 * scale (N. Higham,
//    "Accuracy and Stability of Numerical Algorithms", 2nd ed., chapters 3
//    and 4: inner products, summation), and the factor 4 covers the tail. With the course's inputs
//    (uniform in [-1, 1]) the errors are smaller still: see
//    tests/matmul/test_matmul_cpu.cpp, which measures them for FP32 sums in
//    several orders;
//  * what it catches: at K = 4096 the rule allows about 0.016 (the scale is
//    near K / 4 = 1024), while one dropped term costs |a_ik * b_kj|, 0.25 on
//    average, and a wrong index or an unwritten element is off by far more;
//  * NaN and Inf never pass (course::compare_scaled).
//
// Up to 1024 x 1024 x 1024 (M * N <= 2^20 and M * N * K <= 2^30) every
// element is checked against a full CPU product. Above that, a seeded random
// sample of kSampledElements elements, plus every element of the last row and
// the last column (where partial tiles live), each against its own
// double-precision dot product.
#pragma once

#include "course/compare.h"
#include "course/runner.h"
#include "course/targets.h"
#include "course/track.h"
#include "tracks/matmul/kernels.h"

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace matmul {

// The library rung, with the steps' signature: cublasSgemm in FP32 with
// CUBLAS_PEDANTIC_MATH (no tensor cores, no TF32, no reduced-precision
// shortcuts). cuBLAS is column-major; a row-major C = A * B is, read
// column-major, C^T = B^T * A^T, so it is called with B and A swapped.
void cublas_sgemm(const float* A, const float* B, float* C, int M, int N, int K, cudaStream_t stream);

struct Step {
    int number;
    const char* title;
    Launcher launch;
    Attributes attributes;
};

struct Shape {
    int M = 0, N = 0, K = 0;
    double flops() const { return 2.0 * M * static_cast<double>(N) * K; }
    std::string describe() const;  // "4096 x 4096 x 4096"
};

// A shape from three sizes, or course::UsageError naming `what`: each must be
// at least 1, and each matrix must have fewer than 2^31 elements (the kernels
// index with int).
Shape make_shape(std::uint64_t M, std::uint64_t N, std::uint64_t K, const std::string& what = "--size");

inline constexpr int kDefaultSize = 4096;
inline constexpr std::size_t kSampledElements = 4096;

// The tolerance of the rule above: 4 * sqrt(K) * 2^-24.
double relative_tolerance(int K);

// True when every element of C is checked (M * N <= 2^20, M * N * K <= 2^30).
bool checks_every_element(Shape shape);

// What a result is compared with: the elements of C to check, and for each its
// double-precision value and its scale (sum_k |a_ik * b_kj|).
struct Reference {
    Shape shape;
    bool every_element = false;        // all of C, in order (indices is then empty)
    std::vector<std::size_t> indices;  // otherwise the elements checked: row * N + col
    std::vector<double> want;
    std::vector<double> scale;
};

// The elements a sampled check looks at, sorted and without repeats: the last
// row, the last column, and `samples` seeded random ones.
std::vector<std::size_t> sample_indices(Shape shape, std::size_t samples, std::uint64_t seed);

// The reference at `indices` of A * B (host arrays, row-major, a.size() ==
// M * K, b.size() == K * N), in double precision, using every CPU core.
Reference reference_at(const std::vector<float>& a, const std::vector<float>& b, Shape shape,
                       std::vector<std::size_t> indices);
// The reference of every element (the full product).
Reference reference_all(const std::vector<float>& a, const std::vector<float>& b, Shape shape);

// Compares C (host copy, M * N floats) with `reference` under the rule above;
// a mismatch is reported with its row and column.
course::CheckResult compare_with_reference(const float* c, const Reference& reference);

// Inputs on the GPU (uniform in [-1, 1], seeded) and the reference on the
// host. `offset` shifts A, B and C by that many floats from their
// allocations' starts, so that tests can hand a kernel pointers that are not
// 16-byte aligned.
class Problem {
public:
    Problem(Shape shape, std::uint64_t seed, std::size_t offset = 0);

    Shape shape() const { return shape_; }
    const float* a() const { return a_.data() + offset_; }
    const float* b() const { return b_.data() + offset_; }
    float* c() { return c_.data() + offset_; }
    // "every element checked" or "N elements checked (4096 random, the last row
    // and the last column)"
    std::string check_description() const;

    // How the harness drives `launch` (a step or cublas_sgemm) on this problem.
    course::KernelRun run(Launcher launch);
    // Compares C with the reference.
    course::CheckResult check() const;
    // Writes input set `set` into A and B (the same buffers; set 0: the
    // constructor's seed) and makes check() compare with its reference.
    void use_inputs(int set);

private:
    struct Inputs {
        std::vector<float> a, b;  // as uploaded, offset included
        Reference reference;
    };

    Shape shape_;
    std::size_t offset_;
    std::uint64_t seed_;
    course::DeviceBuffer<float> a_, b_, c_;
    std::map<int, Inputs> sets_;
    const Inputs* current_ = nullptr;
};

// The shape from --size ("4096" or "MxNxK"; the default when empty); throws
// course::UsageError.
Shape shape_from(const course::Options& options);

// "regs" and "smem/block" for the ladder's extra columns.
std::vector<std::string> resource_columns(const cudaFuncAttributes& attributes);

// The ladder of `steps` (the student's row marked), then cuBLAS.
std::vector<course::Ladder> run_ladder(const std::vector<Step>& steps, const course::TrackRun& run);

// A tuned step (COURSE_TUNED_STEP in kernels.h): its configurations, and the
// one its launcher picked for a shape and alignment.
struct TunedStep {
    int number;
    const char* title;
    std::vector<TileConfig> (*configs)();
    int (*choice)(const float* A, const float* B, const float* C, int M, int N, int K);
};

// After the ladder, one sweep per tuned step: each of its configurations that
// fits this GPU's shared memory, run alone at the ladder's shape and measured
// as a rung is, with its time against the fastest's, its registers and shared
// memory, and the one the launcher picked marked.
std::vector<course::Sweep> run_config_sweeps(const std::vector<TunedStep>& steps, const course::TrackRun& run);

// The track with the steps this program was built with (tracks/matmul/steps.cpp).
course::Track track();

// The track's performance targets (tracks/matmul/targets.cpp, run by course-targets).
void targets(course::Targets& targets);

}  // namespace matmul
