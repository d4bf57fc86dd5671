// The reduction track's machinery: the problem on the GPU, the CPU reference,
// CUB's sum (the library rung) and the ladder. What a step's kernel.cu needs is
// in tracks/reduction/kernels.h.
#pragma once

#include "course/compare.h"
#include "course/runner.h"
#include "course/targets.h"
#include "course/track.h"
#include "tracks/reduction/kernels.h"

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <map>
#include <vector>

namespace reduction {

// --- The problem --------------------------------------------------------

inline constexpr std::size_t kDefaultSize = std::size_t{1} << 22;  // Harris's 4M ints

// Random ints, negative ones included, their 64-bit sum, and device buffers.
class Problem {
public:
    // Values uniform in [-2^30, 2^30): sums of a few of them already overflow
    // int32, so a 32-bit accumulator is caught. `offset` starts the input that
    // many ints past its allocation's start, so that tests can hand a kernel a
    // pointer that is not 16-byte aligned.
    Problem(std::size_t n, std::uint64_t seed, std::size_t offset = 0);

    std::size_t size() const { return n_; }
    const int* input() const { return input_.data() + offset_; }
    long long expected() const { return expected_; }
    // Writes input set `set` into the input buffer (the same buffer; set 0:
    // the constructor's seed) and makes check() compare with its sum.
    void use_inputs(int set);
    double bytes_read() const { return 4.0 * static_cast<double>(n_); }

    course::KernelRun run(Launcher launch);
    course::CheckResult check() const;

private:
    std::size_t n_, offset_;
    course::DeviceBuffer<int> input_;
    course::DeviceBuffer<long long> sum_, scratch_;
    std::uint64_t seed_;
    std::map<int, std::vector<int>> sets_;  // each input set as uploaded, once made
    std::map<int, long long> sums_;         // and its sum
    long long expected_ = 0;
};

// The CPU reference: exact 64-bit sum.
long long reference(const std::vector<int>& values);

// CUB's DeviceReduce::Sum into a long long, with its temporary storage
// allocated up front (tracks/reduction/library.cu).
class CubSum {
public:
    CubSum(const int* in, std::size_t n, long long* sum);
    void enqueue(cudaStream_t stream);

private:
    const int* in_;
    std::size_t n_;
    long long* sum_;
    course::DeviceBuffer<unsigned char> temp_;
};

struct Step {
    int number;
    const char* title;
    Launcher launch;
};

// Harris's G80 figures at 2^22 ints (8800 GTX), as Mueller and Ha quote them:
// time in ms and bandwidth in GB/s per kernel 1..7.
struct HarrisFigure {
    double ms;
    double gbps;
};
const HarrisFigure* harris_g80(int step);  // nullptr for steps 8, 9

std::size_t size_from(const course::Options& options);

// The ladder of `steps` (the student's row marked), then CUB, with the
// measured read-sweep ceiling as a note.
std::vector<course::Ladder> run_ladder(const std::vector<Step>& steps, const course::TrackRun& run);

// The track with the steps this program was built with (tracks/reduction/steps.cpp).
course::Track track();

// The track's performance targets (tracks/reduction/targets.cpp, run by course-targets).
void targets(course::Targets& targets);

}  // namespace reduction
