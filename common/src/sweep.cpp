#include "course/sweep.h"

namespace course {

SweepPoint sweep_point(double x, const std::string& label, double work) {
    SweepPoint point;
    point.x = x;
    point.label = label;
    point.work = work;
    return point;
}

SweepPoint measure_point(Harness& harness, SweepPoint point, const KernelRun& run, const std::string& what) {
    // The ladder's machinery, unchanged: a rung carries the point through it.
    Rung rung;
    rung.label = point.label;
    rung.title = what;
    rung.work = point.work;
    rung = measure(harness, rung, run);
    point.time = rung.time;
    point.check = rung.check;
    point.run_index = rung.run_index;
    point.timed = true;
    return point;
}

void enforce_peak(const Sweep& sweep, SweepPoint& point) {
    if (sweep.peak <= 0 || !point.timed || !point.check.ok || point.time.runs == 0 || point.time.median_ms <= 0 ||
        point.work <= 0)
        return;
    const double ratio = throughput(point) / sweep.peak;
    if (ratio <= kSweepPeakMargin) return;
    const bool flops = sweep.unit == Unit::flops;
    const std::string unit = flops ? " GFLOP/s" : " GB/s";
    point.check = failed_check(std::string("faster than this GPU can ") + (flops ? "compute" : "move") +
                               " it: " + format_fixed(throughput(point), 1) + unit + ", " + format_fixed(ratio, 2) +
                               "x its theoretical peak (" + format_fixed(sweep.peak, 1) + unit +
                               "): the kernel did not do the work it was given");
}

}  // namespace course
