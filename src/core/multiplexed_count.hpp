// A hardware counter that the kernel multiplexes with others counts only while
// it is scheduled: over an interval it was enabled `enabled` ns and running
// `running` ns, and its count is scaled to raw x enabled / running. One that
// was enabled but never ran has no count at all, and says so, rather than
// passing its raw delta (0) on as a measurement.
//
// Header-only and free of dependencies: the marker library, which links
// nothing of ours, scales its region counters with it too.
#pragma once

#include <cstdint>

namespace roofline {

struct MultiplexedCount {
    double value = 0;          // the scaled count (0 when not counted)
    double running_share = 1;  // running / enabled: 1 = counted all the time
    bool counted = true;       // false: enabled but never scheduled, the count is unknown
};

inline MultiplexedCount scale_multiplexed(double raw, std::uint64_t enabled, std::uint64_t running) {
    if (running == 0) {
        if (enabled == 0) return {0, 1, true};  // an empty interval: exactly nothing happened
        return {0, 0, false};
    }
    if (enabled < running) enabled = running;  // never scale down (a torn read)
    return {raw * static_cast<double>(enabled) / static_cast<double>(running),
            static_cast<double>(running) / static_cast<double>(enabled), true};
}

} // namespace roofline
