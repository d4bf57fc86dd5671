// The matmul track as built into one program. Meson compiles this file once per
// program with COURSE_LAST_STEP = the last step whose kernel.cu the program
// links (a lesson program: the student's step; course-ladders and
// course-targets: all of them), and matmul_steps.h, written by Meson from
// lessons/matmul/meson.build, lists the steps up to it. Which row is the
// student's is not decided here: a lesson program's main()
// (common/lesson_main.cpp) passes it in as TrackRun::student_step.
#include "tracks/matmul/track.h"

namespace matmul {

course::Track track() {
    static const std::vector<Step> steps = {
#define COURSE_STEP(number, launcher, title) {number, title, launcher, launcher##_attributes},
#define COURSE_TUNED_STEP(number, launcher, title) COURSE_STEP(number, launcher, title)
#include "matmul_steps.h"
#undef COURSE_TUNED_STEP
#undef COURSE_STEP
    };
    // The tuned steps again, for the sweep of their configurations.
    static const std::vector<TunedStep> tuned = {
#define COURSE_STEP(number, launcher, title)
#define COURSE_TUNED_STEP(number, launcher, title) {number, title, launcher##_configs, launcher##_choice},
#include "matmul_steps.h"
#undef COURSE_TUNED_STEP
#undef COURSE_STEP
    };
    course::Track track;
    track.uses_images = COURSE_TRACK_USES_IMAGES;  // the track table, lessons/meson.build
    track.name = "matmul";
    track.title = "Matrix multiply: C = A * B in FP32, from one thread per output to a tuned pipeline, against cuBLAS.";
    track.size_help = "matrix sizes: N for N x N times N x N, or MxNxK for an M x K times K x N product (default 4096)";
    track.options = {steps_option()};
    track.validate = [](const course::Options& options) {
        shape_from(options);
        steps_from(options);
    };
    track.run = [](const course::TrackRun& run) { return run_ladder(steps, run); };
    if (!tuned.empty()) track.run_sweeps = [](const course::TrackRun& run) { return run_config_sweeps(tuned, run); };
    return track;
}

}  // namespace matmul
