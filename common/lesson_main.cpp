// main() of every lesson program. Meson compiles it once per lesson with
// COURSE_TRACK_HEADER (the track's header), COURSE_TRACK (its namespace),
// COURSE_STUDENT_STEP (the lesson's step) and COURSE_LESSON_DIR.
#include COURSE_TRACK_HEADER

int main(int argc, char** argv) {
    return course::lesson_main(argc, argv, COURSE_TRACK::track(), COURSE_STUDENT_STEP, COURSE_LESSON_DIR);
}
