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

// The two targets of a track measured against a copy of the same bytes and
// a library (convolution, Sobel, the image pipeline): its last step, `step`,
// at least `copy_fraction` of the copy's bandwidth and `library_speedup`
// times as fast as the library's rung, in one ladder. One definition per
// track (its track.h) serves both the ladder's note (note_targets) and
// course-targets (report_targets), so the two cannot name different steps.
struct CopyAndLibraryTargets {
    int step;
    double copy_fraction;
    double library_speedup;
    const char* library;  // as the lines name it: "NPP", "NPP's calls"
};

// Adds "step 09 reaches 55.6% of the copy's bandwidth (target: 70%) and runs
// at 10.56x the speed of NPP's calls (target: 5x)" to the ladder's notes when
// it has a checked row of the step and of the copy (the speed part where it
// has a checked library rung); nothing otherwise (a lesson program's ladder
// may end before the step).
void note_targets(Ladder& ladder, const CopyAndLibraryTargets& targets);

// course-targets' two lines for `targets`, from a ladder of every step:
// "<where>: step 09 of the copy's bandwidth" and "<where>: step 09 faster
// than NPP's calls".
void report_targets(Targets& t, const Ladder& ladder, const std::string& where, const CopyAndLibraryTargets& targets);

// The row labelled `label` ("09", "ref", "copy"), or course::Error. The label
// is a C string, not a std::string: a temporary string argument makes GCC 13
// and later warn that the returned reference may dangle (-Wdangling-reference).
const Rung& row(const Ladder& ladder, const char* label);

// How many times as fast `faster` is: the time of `slower` over that of `faster`.
double time_ratio(const Rung& slower, const Rung& faster);

}  // namespace course
