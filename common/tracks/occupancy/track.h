// The occupancy track's machinery: the problems on the GPU, their CPU
// references, the GPU's limits for the calculator, the probe kernels, and
// the sweeps of every step. What a step's kernel.cu needs is in
// tracks/occupancy/kernels.h.
#pragma once

#include "course/compare.h"
#include "course/launches.h"
#include "course/runner.h"
#include "course/sweep.h"
#include "course/track.h"
#include "tracks/occupancy/kernels.h"

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace occupancy {

inline constexpr std::size_t kDefaultDivergenceSize = std::size_t{1} << 22;
inline constexpr std::size_t kDefaultStreamSize = std::size_t{1} << 26;

// --- Step 01 ----------------------------------------------------------------

// n random unsigned ints in, n out. The expected output depends on the case
// count, the rounds and which kernel (long or short cases): each run computes
// it for an input set the first time it checks that set.
//
// Input sets (course/runner.h): use_inputs(set) writes set `set` (from
// course::input_set_seed(seed, set); set 0 is the constructor's seed) into
// the same input buffer. Each set's values are made the first time it is
// used and kept.
class DivergenceProblem {
public:
    DivergenceProblem(std::size_t n, std::uint64_t seed);
    std::size_t size() const { return n_; }
    double bytes_moved() const { return 8.0 * static_cast<double>(n_); }
    // How the harness drives `launch` with `cases` and `rounds`.
    course::KernelRun run(DivergenceLauncher launch, int cases, int rounds, bool short_cases);
    // Writes input set `set` into the input buffer. Waits for the GPU
    // before and after the upload.
    void use_inputs(int set, cudaStream_t stream);

private:
    const std::vector<unsigned>& input(int set);

    std::size_t n_;
    std::uint64_t seed_;
    std::map<int, std::vector<unsigned>> inputs_;
    int current_ = 0;
    course::DeviceBuffer<unsigned> in_, out_;
};

// The CPU references: element i takes case i % cases.
std::vector<unsigned> divergence_reference(const std::vector<unsigned>& in, int cases, int rounds);
std::vector<unsigned> short_cases_reference(const std::vector<unsigned>& in, int cases, int rounds);

// --- Step 02 ----------------------------------------------------------------

// The limits of device `ordinal`: its attributes (registers, shared memory,
// threads, warps and blocks per SM; the per-block reserve of shared memory),
// and the allocation rules of its architecture that no attribute reports
// (register unit and partitions, shared-memory unit).
SmLimits limits_of(int ordinal);
// The limits as one note line.
std::string describe(const SmLimits& limits);

// A launch's block, as the calculator takes it (course/launches.h reads a
// launch and its kernel's attributes).
BlockResources resources_of(const course::KernelLaunch& launch);

// What the CUDA runtime says: cudaOccupancyMaxActiveBlocksPerMultiprocessor.
int api_active_blocks(const void* kernel, int threads, std::size_t dynamic_shared_bytes);

// Kernels with many different register counts and static shared memory, to
// try a calculator on (tracks/occupancy/probes.cu). One of them has opted in
// to the device's largest dynamic shared memory per block.
struct Probe {
    std::string name;  // "held 64", "launch bounds 256x4, held 96", "static 20000 B"
    const void* kernel;
    cudaFuncAttributes attributes;
};
std::vector<Probe> probes();

// --- Steps 03 to 06 -----------------------------------------------------------

// Input sets as DivergenceProblem's: use_inputs(set) writes set `set` into
// the same input buffer and makes check() compare with its reference; each
// set's values and reference are made the first time it is used and kept.
class StreamProblem {
public:
    // `offset` starts in and out that many elements past their allocations'
    // starts (a pointer that is not 16-byte aligned, for tests).
    StreamProblem(std::size_t n, std::uint64_t seed, std::size_t offset = 0);
    std::size_t size() const { return n_; }
    double bytes_moved() const { return 8.0 * static_cast<double>(n_); }
    const unsigned* in() const { return in_.data() + offset_; }
    unsigned* out() { return out_.data() + offset_; }
    course::KernelRun run(StreamLauncher launch, const StreamShape& shape);
    course::CheckResult check() const;
    // Writes input set `set` into the input buffer (the offset's elements
    // too) and makes check() compare with its reference. Waits for the GPU
    // before and after the upload.
    void use_inputs(int set, cudaStream_t stream);

private:
    struct InputSet {
        std::vector<unsigned> input;     // n + offset elements, as uploaded
        std::vector<unsigned> expected;  // n elements
    };
    const InputSet& input_set(int set);

    std::size_t n_, offset_;
    std::uint64_t seed_;
    course::DeviceBuffer<unsigned> in_, out_;
    std::map<int, InputSet> sets_;
    int current_ = 0;
};

// The dynamic shared memory per block with which `blocks` blocks fill the
// SM's shared memory (step 06's low occupancy), the reserve counted, and no
// more than a block may have.
std::size_t shared_bytes_for_blocks(const SmLimits& limits, int blocks);

// --- The steps and their sweeps ---------------------------------------------

struct DivergenceStep {
    int number;
    const char* title;
    DivergenceLauncher launch;
    DivergenceLauncher launch_short;
};
struct StreamStep {
    int number;
    const char* title;
    StreamLauncher launch;
};
// The steps a program was built with (tracks/occupancy/steps.cpp).
struct Steps {
    std::vector<DivergenceStep> divergence;
    Calculator calculator = nullptr;  // step 02's, when the program has it
    std::vector<StreamStep> stream;
};

// Each step's sweep points, as the sweeps and the tests use them.
const std::vector<int>& divergence_cases();            // 1, 2, 4, ..., 32
const std::vector<std::size_t>& shared_sweep_bytes();  // step 04
const std::vector<int>& block_sweep_threads();         // step 05
// Step 06's two occupancy settings: blocks of kIlpThreads threads, with the
// shared memory of shared_bytes_for_blocks(kIlpLowBlocks) (low occupancy) or
// none (full occupancy).
inline constexpr int kIlpThreads = 256;
inline constexpr int kIlpLowBlocks = 2;

// Step 01's sweep of `launch` over the case counts (long or short cases).
course::Sweep divergence_sweep(DivergenceLauncher launch, bool short_cases, int step, bool student,
                               const course::TrackRun& run, DivergenceProblem& problem, int rounds);
// Step 02's sweeps: the calculator against the CUDA runtime on the probe
// kernels, over block size, registers per thread and shared memory per block
// (computed, not timed: the check says whether the two agree).
std::vector<course::Sweep> calculator_sweeps(Calculator calculator, int step, bool student,
                                             const course::TrackRun& run);
// The sweep(s) of stream step `step` (03 to 06) of `launch`, with the
// occupancy `calculator` predicts for each point's launch.
std::vector<course::Sweep> stream_sweeps(StreamLauncher launch, Calculator calculator, int step, bool student,
                                         const course::TrackRun& run, StreamProblem& problem);
// The shapes of stream step `step`'s sweep(s), in order, each with the sweep
// it belongs to (0, or 1 for step 06's full-occupancy sweep).
struct StreamPoint {
    StreamShape shape;
    int sweep = 0;
};
std::vector<StreamPoint> stream_points(int step, const SmLimits& limits);

// The predicted occupancy of the launch `launch` enqueues, by `calculator`.
Occupancy predict(Calculator calculator, const SmLimits& limits, const std::function<void(cudaStream_t)>& launch);

std::size_t divergence_size_from(const course::Options& options);
std::size_t stream_size_from(const course::Options& options);
int rounds_from(const course::Options& options);

std::vector<course::Sweep> run_sweeps(const Steps& steps, const course::TrackRun& run);

// The track with the steps this program was built with (tracks/occupancy/steps.cpp).
course::Track track();

}  // namespace occupancy
