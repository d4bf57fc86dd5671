#include "course/targets.h"

#include "course/check.h"

#include <algorithm>
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

namespace {

// The row labelled `label`, or nullptr.
const Rung* find_row(const Ladder& ladder, const std::string& label) {
    const auto found =
        std::find_if(ladder.rungs.begin(), ladder.rungs.end(), [&](const Rung& r) { return r.label == label; });
    return found == ladder.rungs.end() ? nullptr : &*found;
}

std::string plain(double value) {
    char text[32];
    std::snprintf(text, sizeof text, "%g", value);
    return text;
}

}  // namespace

const Rung& row(const Ladder& ladder, const char* label) {
    const Rung* found = find_row(ladder, label);
    if (found == nullptr) throw Error(std::string("no row \"") + label + "\" in the " + ladder.track + " ladder");
    return *found;
}

double time_ratio(const Rung& slower, const Rung& faster) { return slower.time.median_ms / faster.time.median_ms; }

void note_targets(Ladder& ladder, const CopyAndLibraryTargets& targets) {
    const std::string label = step_label(targets.step);
    const Rung* last = find_row(ladder, label);
    const Rung* copy = find_row(ladder, "copy");
    if (last == nullptr || copy == nullptr || !last->check.ok || !copy->check.ok || last->time.median_ms <= 0) return;
    std::string line = "step " + label + " reaches " + format_percent(time_ratio(*copy, *last)) +
                       " of the copy's bandwidth (target: " + plain(100 * targets.copy_fraction) + "%)";
    const auto library =
        std::find_if(ladder.rungs.begin(), ladder.rungs.end(), [](const Rung& r) { return r.library; });
    if (library != ladder.rungs.end() && library->check.ok && library->time.median_ms > 0)
        line += " and runs at " + format_fixed(time_ratio(*library, *last), 2) + "x the speed of " + targets.library +
                " (target: " + plain(targets.library_speedup) + "x)";
    ladder.notes.push_back(line);
}

void report_targets(Targets& t, const Ladder& ladder, const std::string& where, const CopyAndLibraryTargets& targets) {
    const std::string label = step_label(targets.step);
    const Rung& last = row(ladder, label.c_str());
    t.report(where + ": step " + label + " of the copy's bandwidth", time_ratio(row(ladder, "copy"), last),
             targets.copy_fraction, "");
    t.report(where + ": step " + label + " faster than " + targets.library, time_ratio(row(ladder, "ref"), last),
             targets.library_speedup, "x");
}

}  // namespace course
