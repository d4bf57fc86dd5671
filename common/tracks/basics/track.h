// The basics track's machinery: the problem on the GPU, the CPU reference,
// the check, the ladder and its copy rung. What a step's kernel.cu needs is in
// tracks/basics/kernels.h.
#pragma once

#include "course/compare.h"
#include "course/offsets.h"
#include "course/runner.h"
#include "course/track.h"
#include "tracks/basics/kernels.h"

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <map>
#include <vector>

namespace basics {

struct Step {
    int number;
    const char* title;
    Launcher launch;
};

// a + b is rounded once, to the nearest float, on the GPU as on the CPU, so a
// correct kernel matches the reference to the last bit. The tolerance, 1e-6
// relative (8 to 17 units in the last place), only forgives a kernel that
// gets there another valid way (say, adding in double and rounding after).
inline constexpr course::Tolerance kTolerance{1e-6, 0.0};

inline constexpr std::size_t kDefaultSize = std::size_t{1} << 26;

// Inputs on the GPU and the expected output on the host. `offsets` shift a,
// b and c by that many floats from their allocations' starts, so that tests
// can hand a kernel pointers that are not 16-byte aligned.
class Problem {
public:
    Problem(std::size_t n, std::uint64_t seed, course::Offsets offsets = {});

    std::size_t size() const { return n_; }
    const float* a() const { return a_.data() + offsets_.a; }
    const float* b() const { return b_.data() + offsets_.b; }
    float* c() { return c_.data() + offsets_.c; }
    // Bytes one run moves: two inputs read, one output written.
    double bytes_moved() const { return 12.0 * static_cast<double>(n_); }

    // How the harness drives `launch` on this problem.
    course::KernelRun run(Launcher launch);
    // Compares c with the CPU reference.
    course::CheckResult check() const;

    // Writes input set `set` into a and b (the same buffers; set 0: the
    // constructor's seed) and makes check() compare with its sum.
    void use_inputs(int set);

private:
    struct Inputs {
        std::vector<float> a, b;  // as uploaded, offset included
        std::vector<float> expected;
    };
    const Inputs& inputs(int set);

    std::size_t n_;
    course::Offsets offsets_;
    std::uint64_t seed_;
    course::DeviceBuffer<float> a_, b_, c_;
    std::map<int, Inputs> sets_;
    const Inputs* current_ = nullptr;
};

// The CPU reference.
std::vector<float> reference(const std::vector<float>& a, const std::vector<float>& b);

// n from --size (the default when it is empty); throws UsageError.
std::size_t size_from(const course::Options& options);

// The ladder of `steps` (the student's row marked), then the copy rung.
std::vector<course::Ladder> run_ladder(const std::vector<Step>& steps, const course::TrackRun& run);

// The track with the steps this program was built with (tracks/basics/steps.cpp).
course::Track track();

}  // namespace basics
