#include "cli/progress_line.hpp"

#include "cli/terminal.hpp"

#include <fmt/core.h>

#include <cstdio>

#include <unistd.h>

namespace roofline::cli {
namespace {
// fwrite, not fmt::print, which throws when the reader left (SIGPIPE ignored after a stop,
// EPIPE): a progress line is not worth the run.
void say(const std::string& text) { std::fwrite(text.data(), 1, text.size(), stderr); }
} // namespace

// Drawn over itself only where "erase the line" is understood: TERM=dumb would show the escapes.
ProgressLine::ProgressLine(bool quiet) : quiet_(quiet), live_(understands_escapes(STDERR_FILENO)) {}

void ProgressLine::operator()(const ProgressEvent& e) {
    if (quiet_) return;
    const auto line = fmt::format("[{:>3}/{}] {} (~{:.0f} s left)", e.done + 1, e.total, e.what, e.remaining_seconds);
    if (live_) {
        say("\r\033[K" + line.substr(0, 150));
        drawn_ = true;
    } else {
        say(line + "\n");
    }
    std::fflush(stderr);
}

void ProgressLine::finish() {
    if (live_ && drawn_) say("\r\033[K");
    drawn_ = false;
}

} // namespace roofline::cli
