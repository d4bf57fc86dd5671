// What the grading's self-tests ask of a plant they ran as a grading test
// (course::testing::run_grading_program): that it failed, as a grading test
// fails (not skipped: exit status 77), and that its output says why.
#pragma once

#include "doctest_include.h"
#include "sanitizer_run.h"

#include <string>

namespace course::testing {

inline void check_plant_failed(const CommandRun& run, const std::string& why) {
    MESSAGE(run.output.substr(0, 4000));
    CHECK(run.status != 0);
    CHECK(run.status != 77);
    CHECK(run.output.find(why) != std::string::npos);
}

}  // namespace course::testing
