// Native per-function CPU time by sampling: runs the command with a software
// perf event (task clock) that samples the user-space instruction pointer, and
// attributes the samples to ELF function symbols. Needs no hardware PMU
// (works with perf_event_paranoid <= 2 on the child we start). Linux only.
//
// Only the sampled function itself is credited (self / exclusive time): IP
// samples carry no call stack, and user call chains through frame pointers are
// unreliable in optimized code.
#pragma once

#include "measure/elf_symbols.hpp"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace roofline::measure {

struct FunctionTime {
    long long samples = 0;
    double seconds = 0;  // samples * period: CPU time, summed over threads
};

struct SamplingResult {
    bool ok = false;              // false: sampling could not be set up; see `error`
    std::string error;
    double period_seconds = 0;
    long long samples = 0;        // all samples
    long long lost = 0;           // samples the kernel dropped (ring buffer full)
    double wall_seconds = 0;
    std::map<std::string, FunctionTime> functions;  // "(unknown)" for IPs without a symbol
};

// Runs argv natively, sampling every `period_ns` of task-clock time in all its
// threads and children. Throws CommandNotFound like run_child.
SamplingResult sample_functions(const std::vector<std::string>& argv,
                                const std::vector<std::pair<std::string, std::string>>& env,
                                std::uint64_t period_ns = 100000);

} // namespace roofline::measure
