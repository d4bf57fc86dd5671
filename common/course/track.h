// A track, as the lesson programs and the course program see it: a name, its
// options, and a function that runs the steps this program was built with.
#pragma once

#include "course/ladder.h"
#include "course/options.h"
#include "course/runner.h"

#include <functional>
#include <string>
#include <vector>

namespace course {

struct TrackRun {
    const Options& options;
    Harness& harness;
    int student_step;  // the step whose kernel.cu is the student's; 0 for none
};

struct Track {
    std::string name;          // "basics"
    std::string title;         // one line for --help
    std::string size_help;     // what --size means here, with the default
    bool uses_images = false;  // accepts --input/--output
    std::vector<OptionSpec> options;
    // Parses --size and the track's own options, throwing UsageError on a bad
    // value: called before the GPU is touched, so mistakes are reported first.
    std::function<void(const Options&)> validate;
    // The track's ladders; may be empty for a track of sweeps only.
    std::function<std::vector<Ladder>(const TrackRun&)> run;
    // The track's sweeps (course/sweep.h), printed after its ladders; empty
    // for a track of ladders only.
    std::function<std::vector<Sweep>(const TrackRun&)> run_sweeps;
};

// Both of a track's parts, ladders then sweeps, added to `report`.
void run_track(const Track& track, const TrackRun& run, Report& report);

// main() of a lesson program: the student's step `student_step` and the
// reference solutions before it (a track of sweeps prints the student's
// step's sweeps). `lesson_dir` is shown under the table.
int lesson_main(int argc, char** argv, const Track& track, int student_step, const std::string& lesson_dir);

// main() of the course program: every reference solution of the tracks named
// on the command line (all tracks when none is named).
int course_main(int argc, char** argv, const std::vector<Track>& tracks);

}  // namespace course
