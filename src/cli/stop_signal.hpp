// Ctrl-C and SIGTERM during a long run inside this process (bench, kernels): the first
// sets a flag the run checks between its steps, so what was measured is kept; a second
// leaves at once. The handlers are installed for the object's lifetime.
#pragma once

#include <atomic>

namespace roofline::cli {

class StopSignal {
public:
    StopSignal();
    ~StopSignal();
    StopSignal(const StopSignal&) = delete;
    StopSignal& operator=(const StopSignal&) = delete;

    // The flag the run polls (true once a signal came).
    const std::atomic<bool>& flag() const;
    bool stopped() const { return flag().load(); }
    // 128 + the signal (130 for Ctrl-C, 143 for SIGTERM), as a shell reports it.
    int exit_code() const;
};

} // namespace roofline::cli
