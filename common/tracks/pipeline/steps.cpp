// The image pipeline track as built into one program. Meson compiles this
// file once per program with COURSE_LAST_STEP = the last step whose kernel.cu
// the program links, and pipeline_steps.h, written by Meson from
// lessons/pipeline/meson.build, lists the steps up to it.
#include "tracks/pipeline/track.h"

namespace pipeline {

course::Track track() {
    static const std::vector<Step> steps = {
#define COURSE_STEP(number, launcher, title) {number, title, launcher},
#include "pipeline_steps.h"
#undef COURSE_STEP
    };
    course::Track track;
    track.uses_images = COURSE_TRACK_USES_IMAGES;  // the track table, lessons/meson.build
    track.name = "pipeline";
    track.title = "An RGB image to its edges (grey, 7x7 Gaussian, Sobel), from three naive kernels to one fused "
                  "kernel, each step chosen by profiling.";
    track.size_help = "image size: one number for a square or WxH (default 2048; 8192 is well past the L2 "
                      "cache); or --input FILE (a colour photo: PNG, JPEG, ...)";
    track.options = track_options();
    track.validate = [](const course::Options& options) { settings_from(options); };
    track.run = [](const course::TrackRun& run) { return run_ladder(steps, run); };
    return track;
}

}  // namespace pipeline
