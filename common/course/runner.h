// Running one kernel of a ladder: check it, call it again, time it, check it
// on fresh inputs. A kernel's row is only as good as these checks:
//
//   1. the state the step's contract promises (KernelRun::prepare: the
//      reduction's zeroed scratch) is set up once, before the first call, and
//      never again: whatever a kernel must reset, it resets itself;
//   2. first call: input set 1 written into the problem's buffers, the output
//      poisoned (0xFF bytes: NaN for floats), one launch, compared with the
//      CPU reference of set 1;
//   3. second call, straight after: input set 2 written into the same buffers,
//      the output poisoned with another pattern (0xA5), one launch, compared
//      with set 2's reference. Nothing else is reset in between, so a counter
//      left behind or a result remembered from the first call fails here;
//   4. the warm-up and timed launches (on set 2), then compared again: an
//      element only sometimes written, or a race that shows up only under
//      repetition, fails here;
//   5. fresh inputs after the timed runs: set 0 (the problem's own values)
//      written into the same buffers, the output poisoned, one more launch,
//      compared with set 0's reference. A launcher that replays a result it
//      computed earlier fails here.
//
// Two different poisons mean no unwritten element can match the reference
// twice. A problem with a single input set (KernelRun::use_inputs empty: a
// library rung with data of its own) runs the same sequence on that set.
//
// No row may be faster than the hardware: the ladder's bound (course/ladder.h,
// enforce_bound) fails a row that beats the time the GPU needs to move or
// compute its work, as measured in the same program.
#pragma once

#include "course/buffers.h"
#include "course/compare.h"
#include "course/device.h"
#include "course/ladder.h"
#include "course/timing.h"

#include <cstdint>
#include <functional>

namespace course {

struct KernelRun;

// What every run needs: the device, the timing settings, a stream and the
// L2 flusher. One per program.
struct Harness {
    Harness(DeviceInfo device, TimingConfig timing, bool profile_pass = false);
    DeviceInfo device;
    TimingConfig timing;
    L2Flusher flusher;
    Stream stream;
    // This program is --profile's run under ncu (course/profile.h), or was
    // started with --profile-ranges for an ncu command of one's own: measure()
    // launches each kernel for the profiler and checks and times nothing.
    bool profile_pass = false;
    // measure() calls so far; numbers the rows (Rung::run_index) the same way
    // in the timed run and the run under ncu.
    int runs_measured = 0;
    // Where set, measure() hands it each row and its run before running it: a
    // grading test's look at the launcher it is about to time (the speed rule
    // checks there that the graded launcher's kernels are its kernel.cu's at
    // the race's size: tests/speed_rule.cpp). Empty: nothing is looked at.
    std::function<void(const Rung&, const KernelRun&)> before_measure;
};

// How the harness drives one kernel; the track fills these in.
struct KernelRun {
    std::function<void(cudaStream_t)> launch;                // enqueue the kernel (or library call)
    std::function<void(std::uint8_t, cudaStream_t)> poison;  // fill every output byte with the pattern
    std::function<CheckResult()> check;                      // copy the output back and compare
    // Writes input set `set` into the problem's input buffers (the same
    // buffers, new values: set 0 is the problem's own seeded values, sets 1
    // and 2 come from other seeds) and makes check() compare with that set's
    // reference. Empty: the problem has one set of inputs. It needs no
    // synchronisation of its own: DeviceBuffer::upload waits for the device
    // before and after the copy.
    std::function<void(int set, cudaStream_t)> use_inputs = {};
    // The state the step's contract says the harness sets up before a step's
    // first launch (the reduction's zeroed scratch); called once per row,
    // never between calls. Empty: none.
    std::function<void(cudaStream_t)> prepare = {};
};

inline constexpr std::uint8_t kFirstPoison = 0xFF;
inline constexpr std::uint8_t kSecondPoison = 0xA5;

// Fills in rung.time, rung.check and rung.run_index (label, title, work and
// flags come in set). A CUDA error inside the kernel is rethrown as
// course::Error naming the step, with a hint to run it under
// compute-sanitizer. In --profile's run under ncu and with --profile-ranges
// (harness.profile_pass) it only launches: once to warm up, then the rung's
// marker kernel and one launch between cudaProfilerStart and
// cudaProfilerStop; time and check stay empty.
Rung measure(Harness& harness, Rung rung, const KernelRun& run);

// measure() for the library's rung (NPP, ...): a library call that fails
// (course::Error) is reported in the rung's check instead, so that the ladder
// above it still prints.
Rung measure_library(Harness& harness, Rung rung, const KernelRun& run);

// Only the correctness part of measure() (no timing), for tests: prepare,
// one call on the problem's own inputs (set 0), then, where the problem has
// other input sets, a second call on set 1 with nothing reset in between
// (and set 0 written back). The first failure is returned.
CheckResult check_once(Harness& harness, const KernelRun& run, std::uint8_t poison = kFirstPoison);

// The input sets measure() uses, in order: the first call, the second call
// (also timed), and the fresh inputs after timing.
inline constexpr int kFirstCallInputs = 1;
inline constexpr int kSecondCallInputs = 2;
inline constexpr int kFreshInputs = 0;

}  // namespace course
