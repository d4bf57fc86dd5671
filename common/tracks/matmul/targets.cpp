// The matmul track's performance targets (course/targets.h), each a fraction
// of cuBLAS SGEMM's (FP32) throughput in the same ladder run: step 08 at
// least 0.90 at 4096^3; step 10 at least 0.97 at 4096^3, 0.90 at 2048^3 and
// 8192^3, and 0.80 at the ragged shapes 4095^3, 4097^3 and 1000 x 3000 x 500
// (the checked paths). Past 4096^3 only steps 08 to 10 run (--steps 8-10):
// the first steps take minutes at 8192^3.
#include "course/targets.h"
#include "tracks/matmul/track.h"

#include <string>

namespace matmul {

void targets(course::Targets& t) {
    const course::Ladder ladder = t.ladder(matmul::track(), "4096");
    t.report("matmul at 4096: step 08 of cuBLAS's throughput",
             course::time_ratio(course::row(ladder, "ref"), course::row(ladder, "08")), 0.90, "");
    t.report("matmul at 4096: step 10 of cuBLAS's throughput",
             course::time_ratio(course::row(ladder, "ref"), course::row(ladder, "10")), 0.97, "");
    const struct {
        const char* size;
        double minimum;
    } shapes[] = {{"2048", 0.90}, {"8192", 0.90}, {"4095", 0.80}, {"4097", 0.80}, {"1000x3000x500", 0.80}};
    for (const auto& shape : shapes) {
        const course::Ladder last = t.ladder(matmul::track(), shape.size, {{"steps", "8-10"}});
        t.report(std::string("matmul at ") + shape.size + ": step 10 of cuBLAS's throughput",
                 course::time_ratio(course::row(last, "ref"), course::row(last, "10")), shape.minimum, "");
    }
}

}  // namespace matmul
