// Runs the measured command: fork + exec with extra environment, waits, and
// reports how it ended. SIGINT / SIGTERM received meanwhile are forwarded to it.
#pragma once

#include "measure/engine.hpp"

#include <functional>
#include <string>
#include <sys/types.h>
#include <utility>
#include <vector>

namespace roofline::measure {

struct ChildRun {
    ChildStatus status;
    double wall_seconds = 0;  // from just before exec to the end of wait
};

// Looks argv[0] up like execvp does; empty when not found or not executable.
std::string find_executable(const std::string& name);

// `before_exec(pid)` runs in the parent after fork and before the child execs
// (the child waits for it): perf counters attach there with enable_on_exec.
// `wait_for_exit(pid)`, when given, replaces the plain waitpid and returns the
// child's wait status (a tracer runs its event loop there).
// Throws CommandNotFound ("command not found: X" / "cannot execute X: reason").
ChildRun run_child(const std::vector<std::string>& argv, const std::vector<std::pair<std::string, std::string>>& env,
                   const std::function<void(pid_t)>& before_exec = {},
                   const std::function<int(pid_t)>& wait_for_exit = {});

// "SIGSEGV" for 11; "signal N" when unknown.
std::string signal_name(int sig);

} // namespace roofline::measure
