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

}  // namespace course
