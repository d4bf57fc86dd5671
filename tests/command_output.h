// Running a tool (cuobjdump, nm) and reading what it prints, for the grading
// checks that read a kernel.cu's machine code or its symbols.
#pragma once

#include <cstdio>
#include <string>

namespace course::testing {

// The output of `command` (stdout and whatever it redirects) and its exit
// status as pclose gives it; -1 where it could not be started.
struct CommandOutput {
    int status = -1;
    std::string text;
};

inline CommandOutput command_output(const std::string& command) {
    CommandOutput out;
    FILE* pipe = popen(command.c_str(), "r");
    if (pipe == nullptr) return out;
    char buffer[4096];
    for (std::size_t n; (n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0;) out.text.append(buffer, n);
    out.status = pclose(pipe);
    return out;
}

}  // namespace course::testing
