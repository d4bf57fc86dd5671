// The hgemm track as built into one program. Meson compiles this file once per
// program with COURSE_LAST_STEP = the last step whose kernel.cu the program
// links (a lesson program: the student's step; course-ladders and
// course-targets: all of them), and hgemm_steps.h, written by Meson from
// lessons/hgemm/meson.build, lists the steps up to it. Which row is the
// student's is not decided here: a lesson program's main()
// (common/lesson_main.cpp) passes it in as TrackRun::student_step.
#include "tracks/hgemm/track.h"

namespace hgemm {

course::Track track() {
    static const std::vector<Step> steps = {
#define COURSE_STEP(number, launcher, title) {number, title, launcher, launcher##_attributes},
#define COURSE_HOPPER_STEP(number, launcher, title) {number, title, launcher, launcher##_attributes, kHopper},
#include "hgemm_steps.h"
#undef COURSE_HOPPER_STEP
#undef COURSE_STEP
    };
    course::Track track;
    track.uses_images = COURSE_TRACK_USES_IMAGES;  // the track table, lessons/meson.build
    track.name = "hgemm";
    track.title = "Half-precision matrix multiply on the tensor cores: C = A * B, FP16 in, FP32 accumulate and out, "
                  "against cuBLAS.";
    track.size_help = "matrix sizes: N for N x N times N x N, or MxNxK for an M x K times K x N product (default 4096)";
    track.validate = [](const course::Options& options) { shape_from(options); };
    track.run = [](const course::TrackRun& run) { return run_ladder(steps, run); };
    return track;
}

}  // namespace hgemm
