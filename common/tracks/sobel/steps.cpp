// The Sobel track as built into one program. Meson compiles this file once
// per program with COURSE_LAST_STEP = the last step whose kernel.cu the
// program links, and sobel_steps.h, written by Meson from
// lessons/sobel/meson.build, lists the steps up to it.
#include "tracks/sobel/track.h"

namespace sobel {

course::Track track() {
    static const std::vector<Step> steps = {
#define COURSE_STEP(number, launcher, title) {number, title, launcher, nullptr},
#define COURSE_TEXTURE_STEP(number, launcher, title) {number, title, launcher, launcher##_desc},
#include "sobel_steps.h"
#undef COURSE_STEP
#undef COURSE_TEXTURE_STEP
    };
    course::Track track;
    track.uses_images = COURSE_TRACK_USES_IMAGES;  // the track table, lessons/meson.build
    track.name = "sobel";
    track.title = "Sobel edges on 8-bit pixels, from twelve global reads per pixel to a sliding window in "
                  "registers.";
    track.size_help = "image size: one number for a square or WxH (default 2048; 8192 is well past the L2 "
                      "cache); or --input FILE";
    track.options = track_options();
    track.validate = [](const course::Options& options) { settings_from(options); };
    track.run = [](const course::TrackRun& run) { return run_ladder(steps, run); };
    return track;
}

}  // namespace sobel
