// A point whose region was still open when a signal ended the program (Ctrl-C, SIGTERM, SIGHUP, a
// crash): the marker library closed it as it wrote its regions at the signal, so its time (and any
// counts of the same run) cover only the part that ran before it, not a whole run of the region.
// measure records the signal in the point's details; measure's table, report and plot say it, as
// they say a point set from an interrupted run is partial. Pure.
#pragma once

#include <optional>
#include <string>

namespace roofline {

struct Point;  // core/roofline.hpp

// Point::details key: the number of the signal that ended the program while the point's region
// (the whole program, for the "(program)" point) was still open (2: SIGINT).
inline constexpr const char* kCutOffBySignal = "cut_off_by_signal";

// The signal a point was cut off by; nullopt when it was not (no such detail). A value that is not
// a signal number (a whole number 1 to 64) is refused where the file is read (points_json).
std::optional<int> cut_off_signal(const Point& p);
bool is_signal_number(double value);

// "SIGINT" for 2; "signal N" for one without a name (real-time signals).
std::string signal_text(int sig);

// "cut off by SIGINT: its time is only the part that ran before the signal, not a whole run of it"
// (with `counted`: "its time and counts are only ...").
std::string cut_off_text(int sig, bool counted);

} // namespace roofline
