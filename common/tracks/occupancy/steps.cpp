// The occupancy track as built into one program. Meson compiles this file once
// per program with COURSE_LAST_STEP = the last step whose kernel.cu the
// program links (a lesson program: the student's step; course-ladders: all of
// them), and occupancy_steps.h, written by Meson from
// lessons/occupancy/meson.build, lists the steps up to it, each with its kind
// (divergence, calculator or stream). A lesson program prints its step's
// sweeps; course-ladders prints every step's.
#include "tracks/occupancy/track.h"

namespace occupancy {

course::Track track() {
    static const Steps steps = [] {
        Steps s;
#define COURSE_DIVERGENCE_STEP(number, launcher, title) \
    s.divergence.push_back({number, title, launcher, launcher##_short});
#define COURSE_CALCULATOR_STEP(number, launcher, title) s.calculator = launcher;
#define COURSE_STREAM_STEP(number, launcher, title) s.stream.push_back({number, title, launcher});
#include "occupancy_steps.h"
#undef COURSE_DIVERGENCE_STEP
#undef COURSE_CALCULATOR_STEP
#undef COURSE_STREAM_STEP
        return s;
    }();
    course::Track track;
    track.uses_images = COURSE_TRACK_USES_IMAGES;  // the track table, lessons/meson.build
    track.name = "occupancy";
    track.title = "Occupancy and divergence: divergence by switch (threadIdx.x % N), the occupancy calculator, "
                  "the three limiters swept (registers, shared memory, block size), occupancy or ILP.";
    track.size_help = "number of elements n (default 2^22 for step 01's divergence sweeps, 2^26 for the "
                      "memory-bound sweeps of steps 03 to 06)";
    track.options = {{"rounds", "R", "rounds of each case's loop in step 01's divergence sweeps",
                      std::to_string(kDivergenceRounds)}};
    track.validate = [](const course::Options& options) {
        divergence_size_from(options);
        stream_size_from(options);
        rounds_from(options);
    };
    track.run_sweeps = [](const course::TrackRun& run) { return run_sweeps(steps, run); };
    return track;
}

}  // namespace occupancy
