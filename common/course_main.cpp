// main() of the course program: every reference solution of every track. The
// tracks are the track table's (lessons/meson.build), written out by Meson as
// course_tracks.h.
#include "course/track.h"

#define COURSE_TRACK(name) \
    namespace name {       \
    course::Track track(); \
    }
#define COURSE_TRACK_WITH_TARGETS(name) COURSE_TRACK(name)
#include "course_tracks.h"
#undef COURSE_TRACK_WITH_TARGETS
#undef COURSE_TRACK

int main(int argc, char** argv) {
    return course::course_main(argc, argv,
                               {
#define COURSE_TRACK(name) name::track(),
#define COURSE_TRACK_WITH_TARGETS(name) COURSE_TRACK(name)
#include "course_tracks.h"
#undef COURSE_TRACK_WITH_TARGETS
#undef COURSE_TRACK
                               });
}
