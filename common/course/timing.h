// Timing GPU work honestly.
//
//  * CUDA events on the GPU's own clock, recorded around each launch: the CPU
//    returns from a launch long before the kernel ends, so a host timer would
//    measure the launch, not the kernel.
//  * Warm-up launches first: the first launch of a kernel pays for loading the
//    module, and the first touch of memory for mapping pages.
//  * The L2 cache flushed before every timed run, by reading a buffer twice
//    its size: otherwise a 16 MiB input is read back from a 50 MiB cache and
//    the "DRAM bandwidth" in the table is really L2 bandwidth.
//  * Many runs, reported as the median and the spread, because single runs
//    of a 100-microsecond kernel vary by several percent.
#pragma once

#include "course/buffers.h"

#include <cuda_runtime.h>

#include <functional>
#include <vector>

namespace course {

struct TimingStats {
    int runs = 0;
    double median_ms = 0, min_ms = 0, max_ms = 0;
    double q1_ms = 0, q3_ms = 0;  // first and third quartiles
    // Interquartile range relative to the median: 0.02 means the middle half
    // of the runs lay within 2% of each other.
    double spread() const { return median_ms > 0 ? (q3_ms - q1_ms) / median_ms : 0; }
};

// Median, quartiles (linear interpolation) and extremes of `samples_ms`.
// Throws course::Error on an empty list.
TimingStats summarize(std::vector<double> samples_ms);

struct TimingConfig {
    int warmup = 2;  // untimed launches first
    int runs = 20;   // timed launches; --reps on the command line
    bool flush_l2 = true;
};

// Evicts the L2 cache by streaming a buffer of twice its size through it.
// The buffer is only read, so no dirty lines are left to be written back
// during the next timed kernel.
class L2Flusher {
public:
    explicit L2Flusher(std::size_t l2_bytes);
    void flush(cudaStream_t stream);

private:
    DeviceBuffer<unsigned int> buffer_;
    DeviceBuffer<unsigned int> sink_;
};

// Runs `launch` config.warmup times, then config.runs times each between a
// pair of events (after an L2 flush), and returns the statistics.
// `launch` must enqueue its work on the given stream.
TimingStats time_launches(const std::function<void(cudaStream_t)>& launch, const TimingConfig& config,
                          L2Flusher* flusher, cudaStream_t stream);

}  // namespace course
