// The Sobel track's performance targets (course/targets.h), at 8192x8192:
// step 05 at least 80% of a device-to-device copy's bandwidth, and at least
// 2x as fast as NPP's Sobel magnitude, in the same ladder run.
#include "course/targets.h"
#include "tracks/sobel/track.h"

namespace sobel {

void targets(course::Targets& t) {
    const course::Ladder ladder = t.ladder(sobel::track(), "8192");
    const course::Rung& step05 = course::row(ladder, "05");
    t.report("sobel at 8192: step 05 of the copy's bandwidth", course::time_ratio(course::row(ladder, "copy"), step05),
             0.80, "");
    t.report("sobel at 8192: step 05 faster than NPP", course::time_ratio(course::row(ladder, "ref"), step05), 2.0,
             "x");
}

}  // namespace sobel
