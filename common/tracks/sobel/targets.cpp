// The Sobel track's performance targets (course/targets.h), at 8192x8192:
// step 05 at least 80% of a device-to-device copy's bandwidth, and at least
// 2x as fast as NPP's Sobel magnitude, in the same ladder run.
#include "course/targets.h"
#include "tracks/sobel/track.h"

namespace sobel {

void targets(course::Targets& t) {
    course::report_targets(t, t.ladder(sobel::track(), "8192"), "sobel at 8192", kTargets);
}

}  // namespace sobel
