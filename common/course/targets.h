// A track's performance targets (course-targets, `meson test -C build
// --benchmark`): each is a ratio measured within one ladder run of the
// reference solutions, reported on one line and either met or missed. A
// track with targets says so in the track table (lessons/meson.build) and
// defines them in common/tracks/<track>/targets.cpp.
#pragma once

#include "course/ladder.h"
#include "course/runner.h"
#include "course/track.h"

#include <map>
#include <string>
#include <vector>

namespace course {

class Targets {
public:
    explicit Targets(Harness& harness) : harness_(harness) {}

    // Runs `track` at `size` (its own options at their defaults, but for
    // `options`), prints the table, and reports a missed target if any check
    // fails.
    Ladder ladder(const Track& track, const char* size, const std::map<std::string, std::string>& options = {});
    // The same, every ladder the track prints (the separable track's second
    // ladder is its transfers ladder).
    std::vector<Ladder> ladders(const Track& track, const char* size,
                                const std::map<std::string, std::string>& options = {});

    // One target line: `what`, the measured `value` and the `minimum` it needs.
    void report(const std::string& what, double value, double minimum, const std::string& unit);

    bool all_met() const { return all_met_; }

private:
    Harness& harness_;
    bool all_met_ = true;
};

// The row labelled `label` ("09", "ref", "copy"), or course::Error. The label
// is a C string, not a std::string: a temporary string argument makes GCC 13
// and later warn that the returned reference may dangle (-Wdangling-reference).
const Rung& row(const Ladder& ladder, const char* label);

// How many times as fast `faster` is: the time of `slower` over that of `faster`.
double time_ratio(const Rung& slower, const Rung& faster);

}  // namespace course
