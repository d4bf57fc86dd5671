// The convolution track's performance targets (course/targets.h), at
// 8192x8192: step 10 at least 3x as fast as nppiFilter_8u_C1R, and at least
// 50% of a device-to-device copy's bandwidth, in the same ladder run.
#include "course/targets.h"
#include "tracks/convolution/track.h"

namespace convolution {

void targets(course::Targets& t) {
    course::report_targets(t, t.ladder(convolution::track(), "8192"), "convolution at 8192", kTargets);
}

}  // namespace convolution
