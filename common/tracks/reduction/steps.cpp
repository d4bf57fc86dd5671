// The reduction track as built into one program. Meson compiles this file once per
// program with COURSE_LAST_STEP = the last step whose kernel.cu the program
// links (a lesson program: the student's step; course-ladders and
// course-targets: all of them), and reduction_steps.h, written by Meson from
// lessons/reduction/meson.build, lists the steps up to it. Which row is the
// student's is not decided here: a lesson program's main()
// (common/lesson_main.cpp) passes it in as TrackRun::student_step.
#include "tracks/reduction/track.h"

namespace reduction {

course::Track track() {
    static const std::vector<Step> steps = {
#define COURSE_STEP(number, launcher, title) {number, title, launcher},
#include "reduction_steps.h"
#undef COURSE_STEP
    };
    course::Track track;
    track.uses_images = COURSE_TRACK_USES_IMAGES;  // the track table, lessons/meson.build
    track.name = "reduction";
    track.title = "Reduction: Harris's seven kernels, two modern steps, and CUB.";
    track.size_help = "number of ints n (default 2^22, Harris's size)";
    track.validate = [](const course::Options& options) { size_from(options); };
    track.run = [](const course::TrackRun& run) { return run_ladder(steps, run); };
    return track;
}

}  // namespace reduction
