// main() of every lesson program. Meson compiles it once per lesson with
// COURSE_TRACK (the track's namespace), COURSE_STUDENT_STEP (the lesson's
// step) and COURSE_LESSON_DIR.
#include "course/track.h"

namespace COURSE_TRACK {
course::Track track();  // tracks/<track>/steps.cpp
}

int main(int argc, char** argv) {
    return course::lesson_main(argc, argv, COURSE_TRACK::track(), COURSE_STUDENT_STEP, COURSE_LESSON_DIR);
}
