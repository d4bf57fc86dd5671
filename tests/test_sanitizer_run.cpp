// tests/sanitizer_run.h, with /bin/sh standing in for compute-sanitizer: a
// run fails on a non-zero exit status, and on a summary that counts errors or
// hazards even where the status is 0 (racecheck's warnings).
#include "doctest_include.h"

#include "sanitizer_run.h"

#include <cstdlib>

namespace {

int run_shell(const std::string& script) { return course::testing::run_sanitizer_and_check({"/bin/sh", "-c", script}); }

}  // namespace

TEST_CASE("the summaries that count something") {
    using course::testing::sanitizer_reported_errors;
    CHECK(sanitizer_reported_errors("========= ERROR SUMMARY: 3 errors\n"));
    CHECK(sanitizer_reported_errors("========= ERROR SUMMARY: 1 error\n"));
    CHECK(sanitizer_reported_errors("========= RACECHECK SUMMARY: 12 hazards displayed (0 errors, 12 warnings)\n"));
    CHECK_FALSE(sanitizer_reported_errors("========= ERROR SUMMARY: 0 errors\n"));
    CHECK_FALSE(sanitizer_reported_errors("========= RACECHECK SUMMARY: 0 hazards displayed (0 errors, 0 warnings)\n"));
    CHECK_FALSE(sanitizer_reported_errors("[doctest] Status: SUCCESS!\n"));
}

TEST_CASE("a grading program runs without the caller's sanitizer settings, with its own") {
    // /bin/sh stands in for the grading program: it prints what it was given.
    setenv("COURSE_MEMCHECK", "/caller/compute-sanitizer", 1);
    const course::testing::CommandRun run = course::testing::run_grading_program(
        "/bin/sh", {"COURSE_GRADED=lesson"},
        {"-c", "echo \"${COURSE_MEMCHECK-unset} ${COURSE_RACECHECK-unset} $COURSE_GRADED $0\"", "argument"});
    unsetenv("COURSE_MEMCHECK");
    CHECK(run.status == 0);
    CHECK(run.output == "unset unset lesson argument\n");
}

TEST_CASE("a sanitizer run fails on its exit status, or on hazards its summary counts") {
    CHECK(run_shell("echo '========= RACECHECK SUMMARY: 0 hazards displayed (0 errors, 0 warnings)'") == 0);
    CHECK(run_shell("echo '========= RACECHECK SUMMARY: 2 hazards displayed (0 errors, 2 warnings)'") == 1);
    CHECK(run_shell("echo '========= ERROR SUMMARY: 4 errors' >&2") == 1);
    CHECK(run_shell("echo '========= ERROR SUMMARY: 0 errors'; exit 3") == 3);
    CHECK(run_shell("kill -9 $$") == 1);
    CHECK(course::testing::run_sanitizer_and_check({"/nonexistent/compute-sanitizer"}) == 127);
}
