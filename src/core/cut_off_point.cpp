#include "core/cut_off_point.hpp"

#include "core/roofline.hpp"

#include <cmath>
#include <cstring>

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
    // glibc's abbreviation ("SEGV", "STOP"), for every signal the kernel has; real-time ones have none.
    if (const char* abbrev = ::sigabbrev_np(sig)) return fmt::format("SIG{}", abbrev);
    return fmt::format("signal {}", sig);
}

std::string cut_off_text(int sig, bool counted) {
    return fmt::format("cut off by {}: {} only the part that ran before the signal, not a whole run of it",
                       signal_text(sig), counted ? "its time and counts are" : "its time is");
}

} // namespace roofline
