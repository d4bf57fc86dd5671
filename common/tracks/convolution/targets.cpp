// The convolution track's performance targets (course/targets.h), at
// 8192x8192: step 10 at least 3x as fast as nppiFilter_8u_C1R, and at least
// 50% of a device-to-device copy's bandwidth, in the same ladder run.
#include "course/targets.h"
#include "tracks/convolution/track.h"

namespace convolution {

void targets(course::Targets& t) {
    const course::Ladder ladder = t.ladder(convolution::track(), "8192");
    const course::Rung& step10 = course::row(ladder, "10");
    t.report("convolution at 8192: step 10 faster than NPP", course::time_ratio(course::row(ladder, "ref"), step10),
             3.0, "x");
    t.report("convolution at 8192: step 10 of the copy's bandwidth",
             course::time_ratio(course::row(ladder, "copy"), step10), 0.50, "");
}

}  // namespace convolution
