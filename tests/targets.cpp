// The performance targets of the tracks, as one Meson benchmark
// (`meson test -C build --benchmark`), each measured in one run of the
// reference solutions:
//   reduction    step 09 at least as fast as CUB at 2^22 and at 2^26 ints, and
//                at 2^26 at least 90% of a read-only sweep's bandwidth
//   matmul       step 08 at least 90% of cuBLAS SGEMM (FP32) at 4096^3
//   convolution  step 10 at least 3x as fast as nppiFilter_8u_C1R and at least
//                50% of a device-to-device copy's bandwidth, at 8192x8192
// Prints every ladder and one line per target; exits 1 if any is missed.
// `course-targets reduction` (or matmul, convolution) runs one track's.
#include "course/check.h"
#include "tracks/convolution.h"
#include "tracks/matmul.h"
#include "tracks/reduction.h"

#include <cstdio>
#include <functional>
#include <iostream>
#include <string>
#include <vector>

namespace {

const course::Rung& row(const course::Ladder& ladder, const std::string& label) {
    for (const auto& rung : ladder.rungs)
        if (rung.label == label) return rung;
    throw course::Error("no row \"" + label + "\" in the " + ladder.track + " ladder");
}

struct Targets {
    course::Harness& harness;
    bool all_met = true;

    course::Ladder ladder(const course::Track& track, const char* size) {
        course::Options options;
        options.size = size;
        for (const auto& spec : track.options) options.extra[spec.name] = spec.default_value;
        auto ladders = track.run(course::TrackRun{options, harness, 0});
        std::cout << course::format_table({harness.device, ladders});
        if (!ladders.at(0).all_ok()) report(track.name + " at " + size + ": every check passes", 0, 1, "");
        return ladders.at(0);
    }

    // One target line: `what`, the measured `value` and the `minimum` it needs.
    void report(const std::string& what, double value, double minimum, const std::string& unit) {
        const bool met = value >= minimum;
        std::printf("target %s: %.3f%s (at least %.3f%s) -> %s\n", what.c_str(), value, unit.c_str(), minimum,
                    unit.c_str(), met ? "met" : "MISSED");
        all_met = all_met && met;
    }
};

// How many times as fast `faster` is: the time of `slower` over that of `faster`.
double time_ratio(const course::Rung& slower, const course::Rung& faster) {
    return slower.time.median_ms / faster.time.median_ms;
}

void reduction_targets(Targets& t) {
    const course::Track track = reduction::track();
    for (const char* size : {"2^22", "2^26"}) {
        const course::Ladder ladder = t.ladder(track, size);
        const course::Rung& step09 = row(ladder, "09");
        t.report(std::string("reduction at ") + size + ": step 09 as fast as CUB", time_ratio(row(ladder, "ref"), step09),
                 1.0, "x");
        if (std::string(size) == "2^26")   // against the read-only sweep measured in the same ladder run
            t.report("reduction at 2^26: step 09 of the read sweep's bandwidth", course::throughput(step09) / ladder.ceiling,
                     0.90, "");
    }
}

void matmul_targets(Targets& t) {
    const course::Ladder ladder = t.ladder(matmul::track(), "4096");
    t.report("matmul at 4096: step 08 of cuBLAS's throughput", time_ratio(row(ladder, "ref"), row(ladder, "08")), 0.90,
             "");
}

void convolution_targets(Targets& t) {
    const course::Ladder ladder = t.ladder(convolution::track(), "8192");
    const course::Rung& step10 = row(ladder, "10");
    t.report("convolution at 8192: step 10 faster than NPP", time_ratio(row(ladder, "ref"), step10), 3.0, "x");
    t.report("convolution at 8192: step 10 of the copy's bandwidth", time_ratio(row(ladder, "copy"), step10), 0.50, "");
}

}  // namespace

int main(int argc, char** argv) {
    try {
        std::string why;
        if (!course::gpu_available(&why)) {
            std::printf("skipped: %s\n", why.c_str());
            return 77;
        }
        const std::vector<std::pair<std::string, std::function<void(Targets&)>>> tracks = {
            {"reduction", reduction_targets}, {"matmul", matmul_targets}, {"convolution", convolution_targets}};
        std::vector<std::string> chosen(argv + 1, argv + argc);
        course::TimingConfig timing;
        timing.runs = 50;
        course::Harness harness(course::open_device(0), timing);
        Targets targets{harness};
        for (const auto& [name, run] : tracks) {
            bool wanted = chosen.empty();
            for (const auto& c : chosen) wanted = wanted || c == name;
            if (wanted) run(targets);
        }
        return targets.all_met ? 0 : 1;
    } catch (const std::exception& error) {
        std::fprintf(stderr, "course-targets: error: %s\n", error.what());
        return 1;
    }
}
