// The reduction ladder as built into one program. Meson compiles this file once
// per program with COURSE_LAST_STEP = the last step whose kernel.cu the
// program links (a lesson program: the student's step; the course program
// and course-targets: all of them). Which row is the student's is not
// decided here: a lesson program's main() (common/lesson_main.cpp, compiled
// with COURSE_STUDENT_STEP) passes it in as TrackRun::student_step; the
// course program and course-targets pass 0 (none).
#include "tracks/reduction.h"

namespace reduction {

course::Track track() {
    static const std::vector<Step> steps = {
        {1, "interleaved addressing, divergent branch", step01_interleaved_divergent},
#if COURSE_LAST_STEP >= 2
        {2, "interleaved addressing, strided index", step02_interleaved_strided},
#endif
#if COURSE_LAST_STEP >= 3
        {3, "sequential addressing", step03_sequential},
#endif
#if COURSE_LAST_STEP >= 4
        {4, "first add during the global load", step04_first_add_on_load},
#endif
#if COURSE_LAST_STEP >= 5
        {5, "last warp unrolled (__syncwarp)", step05_unroll_last_warp},
#endif
#if COURSE_LAST_STEP >= 6
        {6, "complete unroll, block size as template", step06_complete_unroll},
#endif
#if COURSE_LAST_STEP >= 7
        {7, "many elements per thread (grid-stride)", step07_many_per_thread},
#endif
#if COURSE_LAST_STEP >= 8
        {8, "warp shuffles", step08_warp_shuffles},
#endif
#if COURSE_LAST_STEP >= 9
        {9, "16-byte loads, single pass", step09_vector_single_pass},
#endif
    };
    course::Track track;
    track.name = "reduction";
    track.title = "Reduction: Harris's seven kernels, two modern steps, and CUB.";
    track.size_help = "number of ints n (default 2^22, Harris's size)";
    track.validate = [](const course::Options& options) { size_from(options); };
    track.run = [](const course::TrackRun& run) { return run_ladder(steps, run); };
    return track;
}

}  // namespace reduction
