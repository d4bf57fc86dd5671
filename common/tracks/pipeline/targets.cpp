// The image pipeline track's performance targets (course/targets.h), at
// 8192x8192 RGB pixels: step 09 (the last) at least 70% of the bandwidth of a
// device-to-device copy moving the same bytes, and at least 5x as fast as
// NPP's four calls, in the same ladder run.
#include "course/targets.h"
#include "tracks/pipeline/track.h"

namespace pipeline {

void targets(course::Targets& t) {
    const course::Ladder ladder = t.ladder(pipeline::track(), "8192");
    const course::Rung& last = course::row(ladder, "09");
    t.report("pipeline at 8192: step 09 of the copy's bandwidth", course::time_ratio(course::row(ladder, "copy"), last),
             0.70, "");
    t.report("pipeline at 8192: step 09 faster than NPP's four calls",
             course::time_ratio(course::row(ladder, "ref"), last), 5.0, "x");
}

}  // namespace pipeline
