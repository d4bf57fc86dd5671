// Sweeps: one kernel measured over a parameter.
//
// A ladder compares kernels; a sweep runs one kernel over the values of a
// parameter (threads per block, registers per thread, shared memory per
// block) and shows how time and throughput follow it, beside numbers the
// track computes per point (the predicted occupancy) or --profile measures
// (the achieved occupancy). Each point goes through the ladder's measure()
// (course/runner.h): poisoned outputs, a check against the CPU reference,
// warm-up, L2 flushes, the median and spread of --reps runs, and a second
// check after the timed runs. The data types and the three output formats
// are in course/ladder.h, beside the ladder's.
#pragma once

#include "course/ladder.h"
#include "course/runner.h"

#include <string>

namespace course {

// The series --profile fills from Nsight Compute (course/profile.h): the
// achieved share of the SM's warp slots, as a fraction (0.93).
inline constexpr const char* kAchievedOccupancy = "achieved occupancy";

// A point before it is measured: its value, its label and the work of one run.
SweepPoint sweep_point(double x, const std::string& label, double work);

// Measures `point` as measure() measures a rung (course/runner.h), and fills
// in its time, check and run_index. `what` names the point in an error
// message ("registers per thread 64"). In --profile's run under ncu it only
// launches (measure() does), so the run_index numbering is the same in both
// runs.
SweepPoint measure_point(Harness& harness, SweepPoint point, const KernelRun& run, const std::string& what);

// No point faster than the hardware. A sweep has no measured ceiling, only
// the GPU's theoretical peak (Sweep::peak), so the bound is looser than a
// ladder's (course/ladder.h, enforce_ceiling): the L2 flush before each timed
// run sends the inputs to DRAM, but a kernel's writes may still sit in L2 when
// it ends, so one that reads n bytes at the peak and writes n can show up to
// twice the peak in bytes moved over its time; 2.5x leaves room for noise. A
// result replayed instead of computed runs at many times the peak.
inline constexpr double kSweepPeakMargin = 2.5;

// Fails `point` (measured, checked) when its throughput exceeds sweep.peak x
// kSweepPeakMargin: "faster than this GPU can move it ...". A sweep without a
// peak is left as it is.
void enforce_peak(const Sweep& sweep, SweepPoint& point);

}  // namespace course
