#include "sanitizer_run.h"

#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <regex>

namespace course::testing {

bool sanitizer_reported_errors(const std::string& output) {
    static const std::regex summary("(ERROR SUMMARY: [1-9][0-9]* error|RACECHECK SUMMARY: [1-9][0-9]* hazard)");
    return std::regex_search(output, summary);
}

std::string environment(const char* name) {
    const char* value = std::getenv(name);
    return value != nullptr ? value : "";
}

CommandRun run_grading_program(const std::string& program, const std::vector<std::string>& settings,
                               const std::vector<std::string>& arguments) {
    std::vector<std::string> command = {"/usr/bin/env", "-u", "COURSE_MEMCHECK", "-u", "COURSE_RACECHECK"};
    command.insert(command.end(), settings.begin(), settings.end());
    command.push_back(program);
    command.insert(command.end(), arguments.begin(), arguments.end());
    return run_command(command, false);
}

CommandRun run_command(const std::vector<std::string>& command, bool echo) {
    CommandRun run;
    if (command.empty()) return run;
    // Why it could not start, as its output (and on stdout with `echo`).
    const auto cannot = [&](const std::string& what) {
        run.output = "cannot " + what + " " + command[0] + ": " + std::strerror(errno) + "\n";
        if (echo) std::printf("%s", run.output.c_str());
        return run;
    };
    int pipe_ends[2];
    if (pipe(pipe_ends) != 0) return cannot("make a pipe for");
    std::fflush(stdout);
    const pid_t child = fork();
    if (child < 0) {
        const CommandRun failed = cannot("start");
        close(pipe_ends[0]);
        close(pipe_ends[1]);
        return failed;
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
    char buffer[4096];
    for (;;) {
        const ssize_t got = read(pipe_ends[0], buffer, sizeof buffer);
        if (got < 0 && errno == EINTR) continue;
        if (got <= 0) break;
        if (echo) {
            std::fwrite(buffer, 1, static_cast<std::size_t>(got), stdout);
            std::fflush(stdout);
        }
        run.output.append(buffer, static_cast<std::size_t>(got));
    }
    close(pipe_ends[0]);
    int status = 0;
    while (waitpid(child, &status, 0) < 0 && errno == EINTR) {
    }
    run.status = WIFEXITED(status) ? WEXITSTATUS(status) : 1;
    return run;
}

int run_sanitizer_and_check(const std::vector<std::string>& command) {
    const CommandRun run = run_command(command, true);
    if (run.status != 0) return run.status;
    if (sanitizer_reported_errors(run.output)) {
        std::printf("the sanitizer reported errors or hazards (above): the test fails\n");
        return 1;
    }
    return 0;
}

}  // namespace course::testing
