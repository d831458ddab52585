// Core clock measured with a chain of dependent single-cycle integer adds:
// each add waits for the previous one, so adds retired / seconds = Hz.
#pragma once

#include "core/topology_report.hpp"

#include <string>

namespace roofline {


// Measures on the calling thread (bind it first) for about `seconds` in total.
ClockMeasurement measure_core_clock(double seconds = 0.1);

// Nominal clock in GHz parsed from a brand string ("... @ 2.40GHz"), 0 if absent.
double nominal_clock_from_brand(const std::string& brand);

} // namespace roofline
