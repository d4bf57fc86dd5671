// Runs a program under compute-sanitizer for the grade setup's "<lesson>
// memcheck" and "<lesson> racecheck" tests (tests/gpu_main.cpp), and decides
// from what the sanitizer reports, not from its exit status alone: racecheck
// reports a warp that relies on lockstep as a warning, which need not set
// --error-exitcode's status, and the course fails every hazard it reports.
#pragma once

#include <string>
#include <vector>

namespace course::testing {

// A command's exit status (1 where a signal ended it, 127 where it could not
// be run) and its output, standard output and error together.
struct CommandRun {
    int status = 1;
    std::string output;
};

// The value of the environment variable `name`, or "" where it is not set
// (the grading's self-tests find their plant programs so).
std::string environment(const char* name);

// Runs `command` (a program's path, then its arguments) and waits for it;
// with `echo`, its output is also copied to stdout as it comes (a long run
// shows progress).
CommandRun run_command(const std::vector<std::string>& command, bool echo);

// Runs the grading program `program` with `arguments` as the grade setup
// runs a grading test, for the grading's self-tests (their plants): with
// COURSE_MEMCHECK and COURSE_RACECHECK unset (the self-test itself may run
// under them), then each of `settings` ("NAME=value") set. Not echoed.
CommandRun run_grading_program(const std::string& program, const std::vector<std::string>& settings,
                               const std::vector<std::string>& arguments);

// True when `output` holds a sanitizer summary that counts something:
// "ERROR SUMMARY: N errors" (memcheck) or "RACECHECK SUMMARY: N hazards
// displayed (...)" with N > 0.
bool sanitizer_reported_errors(const std::string& output);

// Runs `command` (the sanitizer, its options, the program and its arguments)
// with run_command, echoing, and returns its exit status, or 1 where it
// exited 0 but its output reports errors or hazards
// (sanitizer_reported_errors).
int run_sanitizer_and_check(const std::vector<std::string>& command);

}  // namespace course::testing
