// Running a tool (cuobjdump, nm) and reading what it prints, for the grading
// checks that read a kernel.cu's machine code or its symbols.
#pragma once

#include <cstdio>
#include <string>
#include <utility>

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

// Runs `tool` (a path found when the build was configured; empty where it was
// not) with `arguments` (quoted as the shell wants them), its errors merged
// into `text`; false and why in `failure` where the tool is missing
// (`missing` says what to do) or exits with a non-zero status (`what` says
// what cannot be read then).
inline bool tool_output(const std::string& tool, const std::string& arguments, const std::string& missing,
                        const std::string& what, std::string& text, std::string& failure) {
    if (tool.empty()) {
        failure = missing;
        return false;
    }
    const std::string command = "'" + tool + "' " + arguments + " 2>&1";
    CommandOutput out = command_output(command);
    text = std::move(out.text);
    if (out.status != 0) {
        failure = command + " failed (status " + std::to_string(out.status) + "): " + what;
        return false;
    }
    return true;
}

}  // namespace course::testing
