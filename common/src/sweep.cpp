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
    if (throughput(point) <= sweep.peak * kSweepPeakMargin) return;
    point.check = faster_than_the_hardware(throughput(point), sweep.unit, sweep.peak, "its theoretical peak");
}

}  // namespace course
