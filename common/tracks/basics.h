// The basics track: c[i] = a[i] + b[i] over n floats.
//
// The smallest kernel that shows the whole course's pattern: a launcher per
// step (defined by that step's kernel.cu, the student's or the solution), a CPU
// reference, a check, a time, a place on the ladder. It moves 12 bytes per
// element and does one add, so it is purely memory-bound: its ceiling is the
// GPU's memory bandwidth, measured by the library rung, a device-to-device
// copy of the same number of bytes.
#pragma once

#include "course/compare.h"
#include "course/kernel_copy.h"
#include "course/runner.h"
#include "course/track.h"

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <vector>

namespace basics {

// Every step's launcher: a, b and c are device pointers to n floats; it
// enqueues the kernel on `stream` and checks the launch (CUDA_CHECK_LAUNCH).
using Launcher = void (*)(const float* a, const float* b, float* c, std::size_t n, cudaStream_t stream);

// The launchers, one per step (inline namespace: see course/kernel_copy.h).
inline namespace COURSE_KERNEL_COPY {
void step01_vector_add(const float* a, const float* b, float* c, std::size_t n, cudaStream_t stream);
void step02_grid_stride(const float* a, const float* b, float* c, std::size_t n, cudaStream_t stream);
}  // inline namespace COURSE_KERNEL_COPY

struct Step {
    int number;
    const char* title;
    Launcher launch;
};

// a + b is rounded once, to the nearest float, on the GPU as on the CPU, so a
// correct kernel matches the reference to the last bit. The tolerance, 1e-6
// relative (about 8 units in the last place), only forgives a kernel that
// gets there another valid way (say, adding in double and rounding after).
inline constexpr course::Tolerance kTolerance{1e-6, 0.0};

inline constexpr std::size_t kDefaultSize = std::size_t{1} << 26;

// Inputs on the GPU and the expected output on the host. `offset` shifts a,
// b and c by that many floats from their allocations' starts, so that tests
// can hand a kernel pointers that are not 16-byte aligned.
class Problem {
public:
    Problem(std::size_t n, std::uint64_t seed, std::size_t offset = 0);

    std::size_t size() const { return n_; }
    const float* a() const { return a_.data() + offset_; }
    const float* b() const { return b_.data() + offset_; }
    float* c() { return c_.data() + offset_; }
    // Bytes one run moves: two inputs read, one output written.
    double bytes_moved() const { return 12.0 * static_cast<double>(n_); }

    // How the harness drives `launch` on this problem.
    course::KernelRun run(Launcher launch);
    // Compares c with the CPU reference.
    course::CheckResult check() const;

private:
    std::size_t n_, offset_;
    course::DeviceBuffer<float> a_, b_, c_;
    std::vector<float> expected_;
};

// The CPU reference.
std::vector<float> reference(const std::vector<float>& a, const std::vector<float>& b);

// n from --size (the default when it is empty); throws UsageError.
std::size_t size_from(const course::Options& options);

// The ladder of `steps` (the student's row marked), then the copy rung.
std::vector<course::Ladder> run_ladder(const std::vector<Step>& steps, const course::TrackRun& run);

// The track with the steps this program was built with (basics_steps.cpp).
course::Track track();

}  // namespace basics
