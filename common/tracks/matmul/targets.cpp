// The matmul track's performance target (course/targets.h): step 08 at least
// 90% of cuBLAS SGEMM's (FP32) throughput at 4096^3, in the same ladder run.
#include "course/targets.h"
#include "tracks/matmul/track.h"

namespace matmul {

void targets(course::Targets& t) {
    const course::Ladder ladder = t.ladder(matmul::track(), "4096");
    t.report("matmul at 4096: step 08 of cuBLAS's throughput",
             course::time_ratio(course::row(ladder, "ref"), course::row(ladder, "08")), 0.90, "");
}

}  // namespace matmul
