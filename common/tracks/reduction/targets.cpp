// The reduction track's performance targets (course/targets.h): step 09 at
// least as fast as CUB at 2^22 and at 2^26 ints, and at 2^26 at least 90% of
// a read-only sweep's bandwidth, measured in the same ladder run.
#include "course/targets.h"
#include "tracks/reduction/track.h"

#include <string>

namespace reduction {

void targets(course::Targets& t) {
    const course::Track track = reduction::track();
    for (const char* size : {"2^22", "2^26"}) {
        const course::Ladder ladder = t.ladder(track, size);
        const course::Rung& step09 = course::row(ladder, "09");
        t.report(std::string("reduction at ") + size + ": step 09 as fast as CUB",
                 course::time_ratio(course::row(ladder, "ref"), step09), 1.0, "x");
        if (std::string(size) == "2^26")
            t.report("reduction at 2^26: step 09 of the read sweep's bandwidth",
                     course::throughput(step09) / ladder.ceiling, 0.90, "");
    }
}

}  // namespace reduction
