// The hgemm track's machinery: the problem on the GPU, the CPU reference, the
// check, cuBLAS's tensor-core GEMM (the library rung), the tensor-core peak
// and the ladder. What a step's kernel.cu needs is in tracks/hgemm/kernels.h.
//
// Work per run: 2 * M * N * K floating-point operations (one multiply and one
// add per term of each dot product), so the ladder is in GFLOP/s against the
// GPU's dense FP16 tensor-core peak with FP32 accumulation (tensor_peak_gflops
// below).
//
// Checking. A and B are FP16 (uniform in [-1, 1], rounded to FP16), and the
// CPU reference works on exactly those values, so the inputs add no error.
// Each product of two FP16 numbers (11 significant bits each) has at most 22
// significant bits and is exact in FP32 (24), so the only rounding is in the
// K additions of each dot product, in FP32, in whatever order the kernel (or
// the tensor cores) chooses. The rule (relative_tolerance below):
//
//     |got - want| <= rel(K) * sum_k |a_ik * b_kj|,   rel(K) = 8 * sqrt(K) * 2^-24
//
//  * want is the dot product in double precision, on the CPU; the scale
//    sum_k |a_ik * b_kj| is what rounding errors grow with (a tolerance
//    relative to |want| fails correct kernels when terms of both signs
//    cancel), as in the matmul track (tracks/matmul/track.h);
//  * the matmul track allows 4 * sqrt(K) * 2^-24: additions rounded to
//    nearest are off by at most half a unit in the last place (2^-24
//    relative), and errors that do not conspire grow like sqrt(K) (N. Higham,
//    "Accuracy and Stability of Numerical Algorithms", 2nd ed., chapters 3
//    and 4). The tensor cores do not round to nearest: they align the terms
//    of each small block of products to the largest exponent and truncate
//    the bits shifted out (M. Fasi, N. Higham, M. Mikaitis and S. Pranesh,
//    "Numerical behavior of NVIDIA tensor cores", PeerJ Computer Science 7,
//    2021). Truncation can be off by a whole unit (2^-23 relative), twice the
//    bound of rounding to nearest, and always towards zero, so the errors no
//    longer average out as well: hence twice the factor, 8;
//  * tests/hgemm/test_hgemm_cpu.cpp adds the products in FP32 in three ways
//    (one sum rounded to nearest; one sum truncated; blocks of 16 products
//    aligned and truncated as Fasi et al. describe) and requires each to stay
//    within half the tolerance; the truncated sum comes closest, as the
//    argument above expects;
//  * what it catches: at K = 4096 the rule allows about 0.03 (the scale is
//    near K / 4 = 1024), while one dropped term costs |a_ik * b_kj|, 0.25 on
//    average; a sum kept in FP16 (11 bits) is off by far more, and so is a
//    wrong index or an unwritten element;
//  * NaN and Inf never pass (course::compare_scaled).
//
// Up to 1024 x 1024 x 1024 (M * N <= 2^20 and M * N * K <= 2^30) every
// element is checked against a full CPU product. Above that, a seeded random
// sample of kSampledElements elements, plus every element of the last row and
// the last column (where partial tiles live), each against its own
// double-precision dot product.
#pragma once

#include "course/compare.h"
#include "course/device.h"
#include "course/gemm_check.h"
#include "course/ladder.h"
#include "course/offsets.h"
#include "course/runner.h"
#include "course/track.h"
#include "tracks/hgemm/kernels.h"

#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace hgemm {

// The library rung, with the steps' signature: cublasGemmEx with FP16 A and
// B (CUDA_R_16F), FP32 C (CUDA_R_32F), CUBLAS_COMPUTE_32F and the default
// algorithm, which runs on the tensor cores. cuBLAS is column-major; a
// row-major C = A * B is, read column-major, C^T = B^T * A^T, so it is called
// with B and A swapped.
void cublas_gemm_ex(const __half* A, const __half* B, float* C, int M, int N, int K, cudaStream_t stream);

struct Step {
    int number;
    const char* title;
    Launcher launch;
    Attributes attributes;
    int needs_cc = 0;  // the compute capability the step needs (kHopper), 0 for any
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

// The tolerance of the rule above: 8 * sqrt(K) * 2^-24.
double relative_tolerance(int K);

// --- The tensor-core peak ------------------------------------------------------
// Dense FP16 multiply-add throughput of one multiprocessor's tensor cores with
// FP32 accumulation, in FLOP per clock (a multiply-add counts 2), by compute
// capability; 0 for one the course has no figure for. The sources:
//
//   7.0 Volta, 7.5 Turing   8 tensor cores per SM, 64 FP16 FMA per clock each:
//                           1024 FLOP/clock/SM ("NVIDIA Tesla V100 GPU
//                           Architecture" and "NVIDIA Turing GPU
//                           Architecture" whitepapers);
//   8.0 Ampere A100         4 tensor cores per SM, 256 FP16 FMA per clock
//                           each: 2048 ("NVIDIA A100 Tensor Core GPU
//                           Architecture" whitepaper);
//   8.6 Ampere GA10x,       4 tensor cores per SM, 128 dense FP16 FMA per
//   8.9 Ada                 clock each: 1024 ("NVIDIA Ampere GA102 GPU
//                           Architecture" and "NVIDIA Ada GPU Architecture"
//                           whitepapers);
//   9.0 Hopper              twice the A100's rate per SM and clock: 4096
//                           ("NVIDIA H100 Tensor Core GPU Architecture"
//                           whitepaper).
//
// These are the full rates. GeForce boards of Turing, Ampere and Ada run FP16
// with FP32 accumulation at half of them (the same whitepapers' tables), so
// their "% peak" reads at most 50%: the ceiling stays an upper bound.
int tensor_flops_per_clock_per_sm(int cc_major, int cc_minor);

// The GPU's dense FP16 tensor-core peak with FP32 accumulation, GFLOP/s, at
// the highest clock the device reports: SMs x clock x the figure above (0 when
// the figure is unknown). The H100 SXM's 132 SMs at 1830 MHz give 989.4
// TFLOP/s, the figure of its whitepaper; the device reports a higher clock
// (its maximum), so the course's ceiling is a little above that.
double tensor_peak_gflops(int sm_count, int sm_clock_khz, int flops_per_clock_per_sm);

// The ceiling of the steps that multiply with mma.sync or WMMA (01 to 06):
// mma.sync m16n8k16 from registers alone, every SM busy, no memory traffic
// (ceiling.cu), timed like a ladder row. Its throughput is `flops` over
// `time`'s median; on Hopper it is well under the dense peak above, and under
// what wgmma (steps 07 to 09) reaches.
struct MmaCeiling {
    double flops = 0;  // FLOP of one run
    course::TimingStats time;
};
MmaCeiling measure_mma_sync_ceiling(course::Harness& harness);

// The ladder's notes on that ceiling: what it reaches (and its share of
// `peak`, the dense peak, where one is known), then how much of it the
// fastest of steps 01 to kLastMmaSyncStep among `rungs` reaches (library rows
// and rows that failed their check left out). A ceiling above the peak (past
// course::kPeakCeilingMargin), or one of no time or no work, is a bug of the
// measurement: course::Error.
constexpr int kLastMmaSyncStep = 6;  // steps 07 to 09 multiply with wgmma
std::vector<std::string> mma_sync_ceiling_notes(const MmaCeiling& ceiling, double peak,
                                                const std::vector<course::Rung>& rungs);

// Compares C (host copy, M * N floats) with `reference` under the rule above;
// a mismatch is reported with its row and column.
inline course::CheckResult compare_with_reference(const float* c, const Reference& reference) {
    return course::gemm::compare_with_reference(c, reference, relative_tolerance(reference.shape.K));
}

// `count` values uniform in [-1, 1], seeded, each rounded to the nearest FP16
// number: as floats (exactly the FP16 values) and as __half.
struct HalfValues {
    std::vector<float> as_float;
    std::vector<__half> as_half;
};
HalfValues random_halves(std::size_t count, std::uint64_t seed);

// Inputs on the GPU (seeded) and the reference on the host. `offsets` shift
// A, B and C by that many elements from their allocations' starts, so that
// tests can hand a kernel pointers that are not 16- or 32-byte aligned
// (course/offsets.h).
class Problem {
public:
    Problem(Shape shape, std::uint64_t seed, course::Offsets offsets = {});

    Shape shape() const { return shape_; }
    const __half* a() const { return a_.data() + offsets_.a; }
    const __half* b() const { return b_.data() + offsets_.b; }
    float* c() { return c_.data() + offsets_.c; }
    // "every element checked" or "N elements checked (4096 random, the last row
    // and the last column)"
    std::string check_description() const;

    // How the harness drives `launch` (a step or cublas_gemm_ex) on this problem.
    course::KernelRun run(Launcher launch);
    // Compares C with the reference.
    course::CheckResult check() const;
    // Writes input set `set` into A and B (the same buffers; set 0: the
    // constructor's seed) and makes check() compare with its reference.
    void use_inputs(int set);

private:
    struct Inputs {
        std::vector<__half> a, b;  // as uploaded, offset included
        Reference reference;
    };

    Shape shape_;
    course::Offsets offsets_;
    std::uint64_t seed_;
    course::DeviceBuffer<__half> a_, b_;
    course::DeviceBuffer<float> c_;
    std::map<int, Inputs> sets_;
    const Inputs* current_ = nullptr;
};

// The shape from --size ("4096" or "MxNxK"; the default when empty); throws
// course::UsageError.
Shape shape_from(const course::Options& options);

// "regs" and "smem/block" for the ladder's extra columns.
std::vector<std::string> resource_columns(const cudaFuncAttributes& attributes);

// The ladder of `steps` (the student's row marked), then cuBLAS, under the
// tensor-core peak as its ceiling. A step this GPU is too old for
// (Step::needs_cc) has no row: a note says which compute capability it needs.
//
// "" when the GPU at hand has what `step` needs, else the line that says so.
std::string step_missing(const Step& step, const course::DeviceInfo& device);

std::vector<course::Ladder> run_ladder(const std::vector<Step>& steps, const course::TrackRun& run);

// The track with the steps this program was built with (tracks/hgemm/steps.cpp).
course::Track track();

}  // namespace hgemm
