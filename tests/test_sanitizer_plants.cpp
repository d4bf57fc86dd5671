// The grading checks itself (the sanitizer tests). Separable step 01's grading
// test, built against a launcher that reads past the image but computes every
// pixel right (tests/separable/plant_reads_past.cu), passes as an ordinary
// grading test and fails as the grade setup's memcheck test, with
// compute-sanitizer's report of the read. Reduction step 05's, built against a
// launcher whose last warp relies on lockstep execution
// (tests/reduction/plant_warp_synchronous.cu), passes as an ordinary grading
// test and fails as the racecheck test, with racecheck's report of the race.
// So no change to those tests can stop them from seeing such bugs.
#include "doctest_include.h"
#include "gpu_test.h"
#include "plant_run.h"

#include <string>

namespace {

// Runs `plant` as an ordinary grading test (it must pass) and as the grade
// setup's test under `tool` (COURSE_MEMCHECK or COURSE_RACECHECK set, as
// tests/meson.build sets them): it must fail, with `report` in its output.
void check_plant(const std::string& plant_variable, const std::string& tool_variable, const std::string& report) {
    const std::string plant = course::testing::environment(plant_variable.c_str());
    const std::string sanitizer = course::testing::environment("COURSE_SANITIZER_PATH");
    REQUIRE_MESSAGE(!plant.empty(), plant_variable, " is not set (tests/meson.build sets it)");
    if (course::testing::under_sanitizer()) return;  // already under a sanitizer: nothing to add
    if (sanitizer.empty()) {
        MESSAGE("compute-sanitizer is not installed: the grade setup's sanitizer tests skip, and so does this check");
        return;
    }
    // As the grading test: right, so it passes (its race left out: not the point here).
    const course::testing::CommandRun plain =
        course::testing::run_grading_program(plant, {}, {"--test-case-exclude=*as fast as*"});
    CHECK_MESSAGE(plain.status == 0, "the plant should pass without the sanitizer:\n", plain.output);
    // As the lesson's sanitizer test.
    course::testing::check_plant_failed(
        course::testing::run_grading_program(plant, {tool_variable + "=" + sanitizer}, {}), report);
}

}  // namespace

TEST_CASE("the grade setup's memcheck test fails a kernel that reads past the image, which passes without it") {
    check_plant("COURSE_MEMCHECK_PLANT", "COURSE_MEMCHECK", "Invalid __global__ read");
}

TEST_CASE("the grade setup's racecheck test fails a warp that relies on lockstep, which passes without it") {
    check_plant("COURSE_RACECHECK_PLANT", "COURSE_RACECHECK", "hazard detected");
}
