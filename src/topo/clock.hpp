// Core clock measured with a chain of dependent single-cycle integer adds:
// each add waits for the previous one, so adds retired / seconds = Hz.
#pragma once

#include "core/topology_report.hpp"

#include <string>

namespace roofline {


// Measures on the calling thread (bind it first) for about `seconds` in total.
ClockMeasurement measure_core_clock(double seconds = 0.1);

// No x86 core sold runs above about 6.2 GHz (Intel's i9-14900KS at its highest boost; the
// overclocking record, under liquid nitrogen, is about 9 GHz): a reading above this is not a
// clock but a chain that ran faster than one add a cycle (a core that fuses or eliminates the
// adds), and every limit made from it would be too high by as much.
inline constexpr double kMaxPlausibleClockGhz = 7.0;

// `reading_ghz` when a core can run at it; 0 (unknown) above kMaxPlausibleClockGhz, with why in
// `why` (for people). A non-positive reading is returned as it is.
double plausible_clock_ghz(double reading_ghz, std::string* why = nullptr);

// Nominal clock in GHz parsed from a brand string ("... @ 2.40GHz"), 0 if absent.
double nominal_clock_from_brand(const std::string& brand);

} // namespace roofline
