#include "core/cut_off_point.hpp"

#include "core/roofline.hpp"

#include <csignal>
#include <cmath>

#include <fmt/core.h>

namespace roofline {

std::optional<int> cut_off_signal(const Point& p) {
    const auto it = p.details.find(kCutOffBySignal);
    if (it == p.details.end() || !is_signal_number(it->second)) return std::nullopt;
    return static_cast<int>(it->second);
}

// Linux numbers signals 1 to 64 (SIGRTMAX); 0 is no signal.
bool is_signal_number(double value) { return std::isfinite(value) && value == std::floor(value) && value >= 1 && value <= 64; }

std::string signal_text(int sig) {
    // The signals that end a measured program: the stop signals measure passes on, and the crashes
    // the marker library writes its regions at (src/marker, write_before_dying).
    switch (sig) {
    case SIGHUP: return "SIGHUP";
    case SIGINT: return "SIGINT";
    case SIGQUIT: return "SIGQUIT";
    case SIGILL: return "SIGILL";
    case SIGABRT: return "SIGABRT";
    case SIGBUS: return "SIGBUS";
    case SIGFPE: return "SIGFPE";
    case SIGKILL: return "SIGKILL";
    case SIGSEGV: return "SIGSEGV";
    case SIGPIPE: return "SIGPIPE";
    case SIGALRM: return "SIGALRM";
    case SIGTERM: return "SIGTERM";
    default: return fmt::format("signal {}", sig);
    }
}

std::string cut_off_text(int sig, bool counted) {
    return fmt::format("cut off by {}: {} only the part that ran before the signal, not a whole run of it",
                       signal_text(sig), counted ? "its time and counts are" : "its time is");
}

} // namespace roofline
