#include "cli/progress_line.hpp"

#include <fmt/core.h>

#include <unistd.h>

namespace roofline::cli {

ProgressLine::ProgressLine(bool quiet) : quiet_(quiet), live_(isatty(STDERR_FILENO) == 1) {}

void ProgressLine::operator()(const ProgressEvent& e) {
    if (quiet_) return;
    const auto line = fmt::format("[{:>3}/{}] {} (~{:.0f} s left)", e.done + 1, e.total, e.what, e.remaining_seconds);
    if (live_) {
        fmt::print(stderr, "\r\033[K{}", line.substr(0, 150));
        drawn_ = true;
    } else {
        fmt::print(stderr, "{}\n", line);
    }
    std::fflush(stderr);
}

void ProgressLine::finish() {
    if (live_ && drawn_) fmt::print(stderr, "\r\033[K");
    drawn_ = false;
}

} // namespace roofline::cli
