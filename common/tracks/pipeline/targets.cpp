// The image pipeline track's performance targets (course/targets.h), at
// 8192x8192 RGB pixels: step 09 (the last) at least 70% of the bandwidth of a
// device-to-device copy moving the same bytes, and at least 5x as fast as
// NPP's four calls, in the same ladder run.
#include "course/targets.h"
#include "tracks/pipeline/track.h"

namespace pipeline {

void targets(course::Targets& t) {
    course::report_targets(t, t.ladder(pipeline::track(), "8192"), "pipeline at 8192", kTargets);
}

}  // namespace pipeline
