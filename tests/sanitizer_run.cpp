#include "sanitizer_run.h"

#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <regex>

namespace course::testing {

bool sanitizer_reported_errors(const std::string& output) {
    static const std::regex summary("(ERROR SUMMARY: [1-9][0-9]* error|RACECHECK SUMMARY: [1-9][0-9]* hazard)");
    return std::regex_search(output, summary);
}

int run_sanitizer_and_check(const std::vector<std::string>& command) {
    if (command.empty()) return 1;
    int pipe_ends[2];
    if (pipe(pipe_ends) != 0) {
        std::printf("cannot make a pipe for %s: %s\n", command[0].c_str(), std::strerror(errno));
        return 1;
    }
    std::fflush(stdout);
    const pid_t child = fork();
    if (child < 0) {
        std::printf("cannot start %s: %s\n", command[0].c_str(), std::strerror(errno));
        return 1;
    }
    if (child == 0) {
        dup2(pipe_ends[1], STDOUT_FILENO);
        dup2(pipe_ends[1], STDERR_FILENO);
        close(pipe_ends[0]);
        close(pipe_ends[1]);
        std::vector<std::string> args = command;
        std::vector<char*> pointers;
        for (std::string& arg : args) pointers.push_back(arg.data());
        pointers.push_back(nullptr);
        execv(pointers[0], pointers.data());
        std::printf("cannot run %s: %s\n", command[0].c_str(), std::strerror(errno));
        std::fflush(stdout);
        _exit(127);
    }
    close(pipe_ends[1]);
    // The output as it comes (a long run shows progress), and kept for the
    // summary lines, which come last.
    std::string output;
    char buffer[4096];
    for (;;) {
        const ssize_t got = read(pipe_ends[0], buffer, sizeof buffer);
        if (got < 0 && errno == EINTR) continue;
        if (got <= 0) break;
        std::fwrite(buffer, 1, static_cast<std::size_t>(got), stdout);
        std::fflush(stdout);
        output.append(buffer, static_cast<std::size_t>(got));
    }
    close(pipe_ends[0]);
    int status = 0;
    while (waitpid(child, &status, 0) < 0 && errno == EINTR) {
    }
    const int code = WIFEXITED(status) ? WEXITSTATUS(status) : 1;
    if (code != 0) return code;
    if (sanitizer_reported_errors(output)) {
        std::printf("the sanitizer reported errors or hazards (above): the test fails\n");
        return 1;
    }
    return 0;
}

}  // namespace course::testing
