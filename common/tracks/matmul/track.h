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
#include "course/gemm_check.h"
#include "course/offsets.h"
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

// The shape, the elements checked and the double-precision reference are the
// course's matrix-product checks (course/gemm_check.h), shared with the other
// track that multiplies matrices; the tolerance below is this track's.
using course::gemm::checks_every_element;
using course::gemm::make_shape;
using course::gemm::Reference;
using course::gemm::reference_all;
using course::gemm::reference_at;
using course::gemm::sample_indices;
using course::gemm::Shape;

inline constexpr int kDefaultSize = 4096;
inline constexpr std::size_t kSampledElements = 4096;

// The tolerance of the rule above: 4 * sqrt(K) * 2^-24.
double relative_tolerance(int K);

// Compares C (host copy, M * N floats) with `reference` under the rule above;
// a mismatch is reported with its row and column.
inline course::CheckResult compare_with_reference(const float* c, const Reference& reference) {
    return course::gemm::compare_with_reference(c, reference, relative_tolerance(reference.shape.K));
}

// Inputs on the GPU (uniform in [-1, 1], seeded) and the reference on the
// host. `offsets` shift A, B and C by that many floats from their
// allocations' starts, so that tests can hand a kernel pointers that are not
// 16-byte aligned (course/offsets.h).
class Problem {
public:
    Problem(Shape shape, std::uint64_t seed, course::Offsets offsets = {});

    Shape shape() const { return shape_; }
    const float* a() const { return a_.data() + offsets_.a; }
    const float* b() const { return b_.data() + offsets_.b; }
    float* c() { return c_.data() + offsets_.c; }
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
    course::Offsets offsets_;
    std::uint64_t seed_;
    course::DeviceBuffer<float> a_, b_, c_;
    std::map<int, Inputs> sets_;
    const Inputs* current_ = nullptr;
};

// The shape from --size ("4096" or "MxNxK"; the default when empty); throws
// course::UsageError.
Shape shape_from(const course::Options& options);

// The steps a run times, from --steps: "all" (the default), one step "9", or
// a range "8-10". cuBLAS runs in every case. The first steps take minutes at
// 8192^3; a run of the last ones alone is what a sweep of tile
// configurations (tests/matmul/sweep-configs.sh) needs. Throws
// course::UsageError.
struct StepRange {
    int first = 1, last = 99;
    bool contains(int number) const { return number >= first && number <= last; }
};
course::OptionSpec steps_option();
StepRange steps_from(const course::Options& options);

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
