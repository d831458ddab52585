// The ranges a figure read from a file must lie in before the model believes it.
// Finite and positive is not enough: a roof of 1e308 GFLOP/s or 4.9e-324 GB/s is
// finite, yet nothing can be drawn or judged against it. The bounds are far
// outside any real machine or run (three or more orders of magnitude), so they
// only stop typos and hostile files. One home: every reader checks against these.
#pragma once

#include <cmath>
#include <optional>
#include <string>

namespace roofline {

struct FigureRange {
    double min;          // smallest accepted value (inclusive)
    double max;          // largest accepted value (inclusive)
    const char* what;    // the accepted values in words, for messages: "a rate from ..."
    bool zero_allowed = false;  // 0 exactly is accepted too (a count of nothing)
};

// Roofs and ceilings, in 1e9 units per second: 1 kFLOP/s .. 1 EFLOP/s (an
// exascale system's whole peak; one node is below 1e7 GFLOP/s today).
inline constexpr FigureRange rate_range{1e-6, 1e9, "a rate from 1e-6 to 1e9 G/s (1 k/s to 1 E/s)"};
// Clocks in GHz.
inline constexpr FigureRange clock_range{1e-3, 100, "a clock from 0.001 to 100 GHz"};
// A point's work and bytes (counts): 0, or 1e-6 (an analytic average may be a
// fraction) to 1e24 (a year at 1e9 G/s is 3e25; measured runs are far below).
inline constexpr FigureRange count_range{1e-6, 1e24, "a count of 0, or from 1e-6 to 1e24", true};
// A point's seconds: a nanosecond (below any timer's resolution) to three years.
inline constexpr FigureRange seconds_range{1e-9, 1e8, "seconds from 1e-9 (1 ns) to 1e8 (3 years)"};
// Intensities (work per byte) of validation points and lines: 1e-9 .. 1e9.
inline constexpr FigureRange intensity_range{1e-9, 1e9, "an intensity from 1e-9 to 1e9"};
// A coefficient of variation (standard deviation / mean of a figure's samples)
// as files store it: a fraction, 0.05 for 5% (outputs print it as a percent).
// n samples can spread at most sqrt(n); 10 (1000%) is no measurement's.
inline constexpr FigureRange cv_range{0, 10, "a coefficient of variation from 0 to 10 (a fraction: 0.05 is 5%)", true};
// Threads of a roof or a point, cores and sockets.
inline constexpr int max_threads = 1 << 20;
// Cache sizes: 1 byte .. 1 TiB per instance.
inline constexpr double max_cache_bytes = 1099511627776.0;
// Arrays and objects (JSON), sequences and mappings (YAML) inside each other:
// our own files nest less than 10 deep. Parsers keep a frame per open level
// (nlohmann's took 23 s and 1.7 GB to reach the syntax error of 20 MB of '['),
// so every reader refuses a file past this before building anything.
inline constexpr int max_nesting_depth = 200;

inline bool in_range(const FigureRange& range, double value) {
    if (range.zero_allowed && value == 0) return true;
    return std::isfinite(value) && value >= range.min && value <= range.max;
}

} // namespace roofline
