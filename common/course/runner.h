// Running one kernel of a ladder: check it, time it, check it again.
//
//   1. poison the output (0xFF bytes: NaN for floats), run once, compare with
//      the CPU reference;
//   2. poison again with another pattern (0xA5), run the warm-up and timed
//      launches, compare again: an element that is only sometimes written, or a
//      race that shows up only under repetition, fails here. Two different
//      poisons mean no unwritten element can match the reference both times.
#pragma once

#include "course/buffers.h"
#include "course/compare.h"
#include "course/device.h"
#include "course/ladder.h"
#include "course/timing.h"

#include <cstdint>
#include <functional>

namespace course {

// What every run needs: the device, the timing settings, a stream and the
// L2 flusher. One per program.
struct Harness {
    Harness(DeviceInfo device, TimingConfig timing, bool profile_pass = false);
    DeviceInfo device;
    TimingConfig timing;
    L2Flusher flusher;
    Stream stream;
    // This program is --profile's run under ncu (course/profile.h): measure()
    // launches each kernel for the profiler and times nothing.
    bool profile_pass = false;
    // measure() calls so far; numbers the rows (Rung::run_index) the same way
    // in the timed run and the run under ncu.
    int runs_measured = 0;
};

// How the harness drives one kernel; the track fills these in.
struct KernelRun {
    std::function<void(cudaStream_t)> launch;                // enqueue the kernel (or library call)
    std::function<void(std::uint8_t, cudaStream_t)> poison;  // fill every output byte with the pattern
    std::function<CheckResult()> check;                      // copy the output back and compare
};

inline constexpr std::uint8_t kFirstPoison = 0xFF;
inline constexpr std::uint8_t kSecondPoison = 0xA5;

// Fills in rung.time, rung.check and rung.run_index (label, title, work and
// flags come in set). A CUDA error inside the kernel is rethrown as
// course::Error naming the step, with a hint to run it under
// compute-sanitizer. In --profile's run under ncu (harness.profile_pass) it
// only launches: once to warm up, then the rung's marker kernel and one launch
// between cudaProfilerStart and cudaProfilerStop; time and check stay empty.
Rung measure(Harness& harness, Rung rung, const KernelRun& run);

// measure() for the library's rung (NPP, ...): a library call that fails
// (course::Error) is reported in the rung's check instead, so that the ladder
// above it still prints.
Rung measure_library(Harness& harness, Rung rung, const KernelRun& run);

// Only the correctness part of measure() (no timing): for tests.
CheckResult check_once(Harness& harness, const KernelRun& run, std::uint8_t poison = kFirstPoison);

}  // namespace course
