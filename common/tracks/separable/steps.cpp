// The separable track as built into one program. Meson compiles this file once
// per program with COURSE_LAST_STEP = the last step whose kernel.cu the
// program links (a lesson program: the student's step; course-ladders and
// course-targets: all of them), and separable_steps.h, written by Meson from
// lessons/separable/meson.build, lists the steps up to it. Which row is the
// student's is not decided here: a lesson program's main()
// (common/lesson_main.cpp) passes it in as TrackRun::student_step.
#include "tracks/separable/track.h"

namespace separable {

course::Track track() {
    static const std::vector<Step> steps = {
#define COURSE_STEP(number, launcher, title) {number, title, launcher},
#define COURSE_TRANSFERS_STEP(number, launcher, title)
#include "separable_steps.h"
#undef COURSE_STEP
#undef COURSE_TRANSFERS_STEP
    };
    // The transfers lesson (08) and any after it: a ladder of their own.
    static const std::vector<TransferStep> transfer_steps = {
#define COURSE_STEP(number, launcher, title)
#define COURSE_TRANSFERS_STEP(number, launcher, title) {number, title, launcher},
#include "separable_steps.h"
#undef COURSE_STEP
#undef COURSE_TRANSFERS_STEP
    };
    course::Track track;
    track.uses_images = COURSE_TRACK_USES_IMAGES;  // the track table, lessons/meson.build
    track.name = "separable";
    track.title = "Separable convolution: a row pass and a column pass on float pixels, from naive to fused, "
                  "against NPP.";
    track.size_help = "image size: one number for a square or WxH (default 2048; 8192 is well past the L2 cache); "
                      "or --input FILE";
    track.options = track_options();
    track.validate = [](const course::Options& options) { settings_from(options); };
    track.run = [](const course::TrackRun& run) {
        std::vector<course::Ladder> ladders = run_ladder(steps, run);
        // The transfers ladder filters with the last kernel step's solution.
        if (!transfer_steps.empty() && !steps.empty())
            ladders.push_back(transfer_ladder(transfer_steps, steps.back().launch, run));
        return ladders;
    };
    return track;
}

}  // namespace separable
