// course-targets: the performance targets of every track that has them, as
// one Meson benchmark (`meson test -C build --benchmark`), each measured in
// one run of the reference solutions. The targets themselves are the
// tracks' own (common/tracks/<track>/targets.cpp); which tracks have them
// is the track table's to say (lessons/meson.build), written out by Meson
// as course_tracks.h.
// Prints every ladder and one line per target; exits 1 if any is missed.
// `course-targets reduction` (or matmul, convolution) runs one track's.
#include "course/targets.h"
#include "course/check.h"
#include "course/device.h"

#include <cstdio>
#include <string>
#include <utility>
#include <vector>

#define COURSE_TRACK(name)
#define COURSE_TRACK_WITH_TARGETS(name) \
    namespace name {                    \
    void targets(course::Targets&);     \
    }
#include "course_tracks.h"
#undef COURSE_TRACK_WITH_TARGETS
#undef COURSE_TRACK

int main(int argc, char** argv) {
    try {
        std::string why;
        if (!course::gpu_available(&why)) {
            std::printf("skipped: %s\n", why.c_str());
            return 77;
        }
        const std::vector<std::pair<std::string, void (*)(course::Targets&)>> tracks = {
#define COURSE_TRACK(name)
#define COURSE_TRACK_WITH_TARGETS(name) {#name, name::targets},
#include "course_tracks.h"
#undef COURSE_TRACK_WITH_TARGETS
#undef COURSE_TRACK
        };
        std::vector<std::string> chosen(argv + 1, argv + argc);
        course::TimingConfig timing;
        timing.runs = 50;
        course::Harness harness(course::open_device(0), timing);
        course::Targets targets{harness};
        for (const auto& [name, run] : tracks) {
            bool wanted = chosen.empty();
            for (const auto& c : chosen) wanted = wanted || c == name;
            if (wanted) run(targets);
        }
        return targets.all_met() ? 0 : 1;
    } catch (const std::exception& error) {
        std::fprintf(stderr, "course-targets: error: %s\n", error.what());
        return 1;
    }
}
