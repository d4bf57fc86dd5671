// --profile: the ladder's kernels profiled by Nsight Compute, as columns of the ladder.
//
// C. Angerer and J. Demouth, "CUDA Optimization with NVIDIA Nsight Visual
// Studio Edition" (NVIDIA GTC 2015), work profile first: profile, identify the
// limiter, find its indicators, change one thing, measure. They sort a kernel
// into four cases by its memory and compute (SM) throughput against 60% of
// peak; the "limiter" column is that sorting.
//
// How it runs: the program first measures its ladder as always (the timing
// never sees the profiler). Then it runs itself again under ncu with
// COURSE_PROFILE_PASS=1 in its environment. In that run measure() times
// nothing: per rung it launches the kernel once to warm up, then, between
// cudaProfilerStart() and cudaProfilerStop(), a marker kernel of
// run_index + 1 blocks and the rung's launch once. ncu (--profile-from-start
// off) profiles only those ranges, so its CSV reads: marker, the rung's
// kernels, marker, ... Both runs execute the same ladder code, so run_index
// (the how-many-th measure() call) names the same rung in both.
#pragma once

#include "course/ladder.h"

#include <cuda_runtime.h>

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace course {

// One kernel launch as ncu measured it. Throughputs are % of peak.
struct KernelProfile {
    std::string name;      // as ncu prints it: "void <unnamed>::reduce<int>(const T1 *, int)"
    std::string grid;      // "(4096, 1, 1)"
    double ms = 0;         // gpu__time_duration, under ncu's locked clocks and flushed caches
    double dram = 0;       // DRAM throughput
    double sm = 0;         // SM throughput (the busiest of the SM's pipelines and issue)
    double memory = 0;     // memory throughput: the busiest of DRAM, L2 and L1/shared
    double l2 = 0;         // L2 throughput
    double l1 = 0;         // L1/shared throughput
    double occupancy = 0;  // achieved occupancy: % of the SM's warp slots in use
};

// The rung's kernels, by run_index (see above).
using RungProfiles = std::map<int, std::vector<KernelProfile>>;

// Marks the start of rung `run_index`'s launches in the profile: a kernel of
// run_index + 1 blocks of one thread that does nothing.
inline constexpr const char* kProfileMarkerKernel = "course_profile_marker";
void launch_profile_marker(int run_index, cudaStream_t stream);

// Set to 1 in the environment of the run under ncu.
inline constexpr const char* kProfilePassVariable = "COURSE_PROFILE_PASS";
bool in_profile_pass();

// --- The run under ncu ---------------------------------------------------------
// The metrics asked of ncu (names of Hopper's ncu 2025).
const std::vector<std::string>& profile_metrics();
// The executable `name` in a directory of `path` (a $PATH value), or "".
std::string find_on_path(const std::string& name, const char* path);
// Throws course::Error (one line) unless an executable ncu is on $PATH: called
// before the GPU is touched, so a missing ncu is reported before the ladder runs.
void require_ncu();
// The ncu command line: `ncu`, its options, `program` and the program's
// arguments without --profile.
std::vector<std::string> ncu_command(const std::string& ncu, const std::string& log_file, const std::string& program,
                                     const std::vector<std::string>& args);
// Runs this program again under ncu with `args` (its arguments, --profile
// among them) and returns the kernels of each rung. Throws course::Error
// (one line) when ncu fails.
RungProfiles run_profile_pass(const std::vector<std::string>& args);

// --- Reading ncu's output (unit-tested) ----------------------------------------
// Every kernel row of ncu's `--csv --page raw` output, in launch order.
// Columns are found by their names; ncu's ==PROF== lines are skipped; numbers
// may carry thousands separators. Throws course::Error when a metric's column
// is missing.
std::vector<KernelProfile> parse_ncu_csv(const std::string& log);
// The kernels after marker k (grid "(k+1, 1, 1)") up to the next marker go to
// rung k; kernels before the first marker are dropped.
RungProfiles split_by_markers(const std::vector<KernelProfile>& kernels);
// The error to report, or nothing: the counters' permission error
// (ERR_NVGPUCTRPERM), ncu's first ==ERROR==, the program's failure, or no kernel
// profiled at all. `log` is ncu's output, `output` the program's.
std::optional<std::string> profile_failure(const std::string& log, const std::string& output, int exit_status,
                                           std::size_t kernels);

// --- The talk's four cases and the columns (unit-tested) -----------------------
enum class Limiter { compute, bandwidth, compute_and_bandwidth, latency };
inline constexpr double kLimiterLine = 60.0;  // % of peak
// compute: SM >= 60% and memory < 60%; bandwidth: the reverse; both >= 60%:
// compute and bandwidth; both below: latency.
Limiter classify(double memory_percent, double sm_percent);
// "compute", "bandwidth", "compute+bw", "latency".
std::string limiter_name(Limiter limiter);
// Several kernels as one: times added, every percentage averaged weighted by
// each kernel's time (evenly if no time was measured).
KernelProfile combine(const std::vector<KernelProfile>& kernels);
// "void cub::DeviceReduceKernel<...>(...)" -> "DeviceReduceKernel",
// "void <unnamed>::reduce_sequential<int>(const T1 *, ...)" -> "reduce_sequential".
std::string short_kernel_name(const std::string& name);
// Appends "DRAM %", "SM %", "occupancy" and "limiter" to every ladder with a
// measured rung ("-" where a rung launched no kernel ncu sees, like a
// cudaMemcpy), a note on reading them, and a note per rung of several kernels
// listing each with its grid (the talk's "identify the hotspot"). Every sweep
// with a measured point gets its "achieved occupancy" series filled in (added
// if it has none), point by point, and a note.
void add_profile(Report& report, const RungProfiles& profiles);

}  // namespace course
