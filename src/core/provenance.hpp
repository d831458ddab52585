// Where a set of points came from: written with every points file and stored
// point set that `roofline measure` makes, so that sets can be told apart and
// a measurement repeated.
#pragma once

#include <map>
#include <string>
#include <vector>

namespace roofline {

struct Provenance {
    std::vector<std::string> command;  // as run, program first
    std::string cwd;
    std::string date;                  // ISO 8601 UTC
    std::string host;
    std::string cpu;                   // CPUID brand string
    std::vector<std::string> runs;     // what ran, in order: "native", "instrument", "call-timing", "sampling"
    std::string engine;                // the counting engine: "instrument", "perf", "time"
    std::map<std::string, std::string> options;  // settings that change the numbers (region scope ...)
    std::string tool_version;
};

} // namespace roofline
