// The reduction track's performance targets, as a Meson benchmark
// (`meson test -C build --benchmark`), in one run:
//   step 09 at least as fast as CUB at 2^22 and at 2^26 ints, and
//   at 2^26, at least 90% of the read bandwidth of a read-only sweep.
// Prints both ladders and one line per target; exits 1 if any is missed.
#include "course/check.h"
#include "tracks/reduction.h"

#include <cstdio>
#include <iostream>

int main() {
    try {
        std::string why;
        if (!course::gpu_available(&why)) {
            std::printf("skipped: %s\n", why.c_str());
            return 77;
        }
        course::TimingConfig timing;
        timing.runs = 50;
        course::Harness harness(course::open_device(0), timing);
        const course::Track track = reduction::track();
        bool all_met = true;
        for (const char* size : {"2^22", "2^26"}) {
            course::Options options;
            options.size = size;
            const auto ladders = track.run(course::TrackRun{options, harness, 0});
            std::cout << course::format_table({harness.device, ladders});
            const course::Ladder& ladder = ladders.at(0);
            const std::size_t step09 = ladder.rungs.size() - 2, cub = ladder.rungs.size() - 1;
            const double vs_cub = ladder.rungs[cub].time.median_ms / ladder.rungs[step09].time.median_ms;
            const bool fast_enough = ladder.all_ok() && vs_cub >= 1.0;
            std::printf("target at %s: step 09 at least as fast as CUB: %.3fx -> %s\n", size, vs_cub,
                        fast_enough ? "met" : "MISSED");
            all_met = all_met && fast_enough;
            if (std::string(size) == "2^26") {
                // The read-only sweep measured in the same ladder run.
                const double fraction = course::throughput(ladder.rungs[step09]) / ladder.ceiling;
                const bool near_ceiling = fraction >= 0.90;
                std::printf("target at %s: step 09 at least 90%% of the read sweep's bandwidth: %.1f%% -> %s\n", size,
                            100 * fraction, near_ceiling ? "met" : "MISSED");
                all_met = all_met && near_ceiling;
            }
            std::cout << "\n";
        }
        return all_met ? 0 : 1;
    } catch (const std::exception& error) {
        std::fprintf(stderr, "reduction-targets: error: %s\n", error.what());
        return 1;
    }
}
