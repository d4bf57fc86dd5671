// The separable track's performance targets (course/targets.h), at 8192x8192,
// each measured within one ladder run: with 7 taps, step 07 at least 2x as
// fast as NPP's row and column filters and at least 75% of a device-to-device
// copy's bandwidth; with 31 taps, still at least 2x as fast as NPP. And the
// whole job, host to host (the transfers ladder): step 08, overlapped, at
// least 1.5x as fast as the upload, filter and download in turn from pinned
// memory.
#include "course/targets.h"
#include "tracks/separable/track.h"

namespace separable {

void targets(course::Targets& t) {
    const course::Track track = separable::track();
    {
        const std::vector<course::Ladder> ladders = t.ladders(track, "8192", {{"taps", "7"}});
        const course::Ladder& ladder = ladders.at(0);
        const course::Rung& last = course::row(ladder, "07");
        t.report("separable at 8192, 7 taps: step 07 faster than NPP",
                 course::time_ratio(course::row(ladder, "ref"), last), 2.0, "x");
        t.report("separable at 8192, 7 taps: step 07 of the copy's bandwidth",
                 course::time_ratio(course::row(ladder, "copy"), last), 0.75, "");
        const course::Ladder& transfers = ladders.at(1);
        t.report("separable at 8192, 7 taps, host to host: step 08 faster than the serial pinned job",
                 course::time_ratio(course::row(transfers, "pinned"), course::row(transfers, "08")), 1.5, "x");
    }
    {
        const course::Ladder ladder = t.ladder(track, "8192", {{"taps", "31"}});
        t.report("separable at 8192, 31 taps: step 07 faster than NPP",
                 course::time_ratio(course::row(ladder, "ref"), course::row(ladder, "07")), 2.0, "x");
    }
}

}  // namespace separable
