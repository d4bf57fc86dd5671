#include "course/targets.h"

#include "course/check.h"

#include <cstdio>
#include <iostream>

namespace course {

std::vector<Ladder> Targets::ladders(const Track& track, const char* size,
                                     const std::map<std::string, std::string>& chosen) {
    Options options;
    options.size = size;
    options.extra = option_defaults(track.options);
    for (const auto& [name, value] : chosen) options.extra[name] = value;
    auto ladders = track.run(TrackRun{options, harness_, 0});
    std::cout << format_table({harness_.device, ladders});
    for (const Ladder& ladder : ladders)
        if (!ladder.all_ok()) report(track.name + " at " + size + ": every check passes", 0, 1, "");
    return ladders;
}

Ladder Targets::ladder(const Track& track, const char* size, const std::map<std::string, std::string>& chosen) {
    return ladders(track, size, chosen).at(0);
}

void Targets::report(const std::string& what, double value, double minimum, const std::string& unit) {
    const bool met = value >= minimum;
    std::printf("target %s: %.3f%s (at least %.3f%s) -> %s\n", what.c_str(), value, unit.c_str(), minimum, unit.c_str(),
                met ? "met" : "MISSED");
    all_met_ = all_met_ && met;
}

const Rung& row(const Ladder& ladder, const char* label) {
    for (const auto& rung : ladder.rungs)
        if (rung.label == label) return rung;
    throw Error(std::string("no row \"") + label + "\" in the " + ladder.track + " ladder");
}

double time_ratio(const Rung& slower, const Rung& faster) { return slower.time.median_ms / faster.time.median_ms; }

}  // namespace course
