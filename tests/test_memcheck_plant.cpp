// The grading checks itself (memory errors): separable step 01's grading test,
// built against a launcher that reads past the image but computes every pixel
// right (tests/separable/plant_reads_past.cu), passes as an ordinary grading
// test and fails as the grade setup's memcheck test, with compute-sanitizer's
// report of the read. So no change to the memcheck tests can stop them from
// seeing such a read.
#include "doctest_include.h"
#include "gpu_test.h"

#include <sys/wait.h>

#include <cstdio>
#include <cstdlib>
#include <string>

namespace {

struct Run {
    int status = -1;
    std::string output;
};

Run run(const std::string& command) {
    Run result;
    FILE* pipe = popen((command + " 2>&1").c_str(), "r");
    REQUIRE_MESSAGE(pipe != nullptr, "cannot run: ", command);
    char buffer[4096];
    while (std::fgets(buffer, sizeof buffer, pipe) != nullptr) result.output += buffer;
    const int status = pclose(pipe);
    result.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    return result;
}

std::string environment(const char* name) {
    const char* value = std::getenv(name);
    return value != nullptr ? value : "";
}

}  // namespace

TEST_CASE("the grade setup's memcheck test fails a kernel that reads past the image, which passes without it") {
    const std::string plant = environment("COURSE_PLANT");
    const std::string sanitizer = environment("COURSE_MEMCHECK_PATH");
    REQUIRE_MESSAGE(!plant.empty(), "COURSE_PLANT is not set (tests/meson.build sets it)");
    if (course::testing::under_sanitizer()) return;  // already under a sanitizer: nothing to add
    if (sanitizer.empty()) {
        MESSAGE("compute-sanitizer is not installed: the grade setup's memcheck tests skip, and so does this check");
        return;
    }
    // As the grading test: right, so it passes (its race left out: not the point here).
    const Run plain = run("env -u COURSE_MEMCHECK '" + plant + "' '--test-case-exclude=*as fast as*'");
    CHECK_MESSAGE(plain.status == 0, "the plant should pass without the sanitizer:\n", plain.output);
    // As the lesson's memcheck test (COURSE_MEMCHECK, as tests/meson.build sets it).
    const Run checked = run("env COURSE_MEMCHECK='" + sanitizer + "' '" + plant + "'");
    MESSAGE(checked.output.substr(0, 3000));
    CHECK(checked.status != 0);
    CHECK(checked.status != 77);
    CHECK(checked.output.find("Invalid __global__ read") != std::string::npos);
}
