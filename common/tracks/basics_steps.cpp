// The basics ladder as built into one program. Meson compiles this file once
// per program with COURSE_LAST_STEP = the last step whose kernel.cu the
// program links (a lesson program: the student's step; the course program:
// all of them). Which row is the student's is not decided here: a lesson
// program's main() (common/lesson_main.cpp, compiled with
// COURSE_STUDENT_STEP) passes it in as TrackRun::student_step, and the
// course program passes 0 (none).
#include "tracks/basics.h"

namespace basics {

course::Track track() {
    static const std::vector<Step> steps = {
        {1, "one element per thread", step01_vector_add},
#if COURSE_LAST_STEP >= 2
        {2, "grid-stride loop, 16-byte loads", step02_grid_stride},
#endif
    };
    course::Track track;
    track.name = "basics";
    track.title = "Basics: c = a + b, from one element per thread to the bandwidth ceiling.";
    track.size_help = "number of floats n (default 2^26)";
    track.validate = [](const course::Options& options) { size_from(options); };
    track.run = [](const course::TrackRun& run) { return run_ladder(steps, run); };
    return track;
}

}  // namespace basics
