// The convolution ladder as built into one program. Meson compiles this file once
// per program with COURSE_LAST_STEP = the last step whose kernel.cu the
// program links (a lesson program: the student's step; the course program
// and course-targets: all of them). Which row is the student's is not
// decided here: a lesson program's main() (common/lesson_main.cpp, compiled
// with COURSE_STUDENT_STEP) passes it in as TrackRun::student_step; the
// course program and course-targets pass 0 (none).
#include "tracks/convolution.h"

namespace convolution {

course::Track track() {
    static const std::vector<Step> steps = {
        {1, "naive, global memory", step01_naive_global},
#if COURSE_LAST_STEP >= 2
        {2, "texture, 1 pixel per thread", step02_texture, step02_texture_desc},
#endif
#if COURSE_LAST_STEP >= 3
        {3, "texture, 4 pixels per thread", step03_texture_4px, step03_texture_desc},
#endif
#if COURSE_LAST_STEP >= 4
        {4, "texture into shared memory", step04_texture_shared, step04_texture_desc},
#endif
#if COURSE_LAST_STEP >= 5
        {5, "float texture into shared memory", step05_float_texture, step05_texture_desc},
#endif
#if COURSE_LAST_STEP >= 6
        {6, "global to shared, shifted byte reads", step06_global_shared},
#endif
#if COURSE_LAST_STEP >= 7
        {7, "strict coalescing, 32-bit words", step07_strict_coalescing},
#endif
#if COURSE_LAST_STEP >= 8
        {8, "16-byte loads and stores", step08_16byte_loads},
#endif
#if COURSE_LAST_STEP >= 9
        {9, "bank conflicts resolved", step09_bank_conflicts},
#endif
#if COURSE_LAST_STEP >= 10
        {10, "unrolled into registers, dp4a", step10_unrolled},
#endif
    };
    course::Track track;
    track.name = "convolution";
    track.title = "Convolution Soup: a 5x5 filter on 8-bit pixels, from naive global memory to 16-byte, "
                  "bank-conflict-free, unrolled.";
    track.size_help = "image size: one number for a square or WxH (default 2048, the talk's size; 8192 is well "
                      "past the L2 cache); or --input FILE";
    track.uses_images = true;
    track.options = track_options();
    track.validate = [](const course::Options& options) { settings_from(options); };
    track.run = [](const course::TrackRun& run) { return run_ladder(steps, run); };
    return track;
}

}  // namespace convolution
