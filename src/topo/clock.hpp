// Core clock measured with a chain of dependent single-cycle integer adds:
// each add waits for the previous one, so adds retired / seconds = Hz.
#pragma once

#include <string>

namespace roofline {

struct ClockMeasurement {
    double ghz = 0;        // 90th percentile over samples (interference only slows the chain)
    double min_ghz = 0, max_ghz = 0;
    int samples = 0;
};

// Measures on the calling thread (bind it first) for about `seconds` in total.
ClockMeasurement measure_core_clock(double seconds = 0.1);

// Nominal clock in GHz parsed from a brand string ("... @ 2.40GHz"), 0 if absent.
double nominal_clock_from_brand(const std::string& brand);

} // namespace roofline
