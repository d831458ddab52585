// Progress of a long bench run, reported to whoever drives it (the CLI draws a
// live line on a terminal, plain lines otherwise).
#pragma once

#include <functional>
#include <string>

namespace roofline {

struct ProgressEvent {
    std::string what;        // e.g. "memory L2 copy 2 threads 256 KiB"
    int done = 0;            // tasks finished before this one
    int total = 0;
    double elapsed_seconds = 0;
    double remaining_seconds = 0;  // estimate
};

using ProgressSink = std::function<void(const ProgressEvent&)>;

} // namespace roofline
