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

}  // namespace course
