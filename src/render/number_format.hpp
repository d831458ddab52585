// The one way numbers and units are written for people: every command's text,
// tables and chart labels use these, so a figure reads the same everywhere.
#pragma once

#include <string>

namespace roofline {

// Three significant digits without an exponent in the range people read
// (0.001 .. 99999): 1.45, 29.0, 104, 0.0625; 1.23e+06 outside it; "n/a" when
// not finite.
std::string format_number(double value);

// Counts as given, up to 6 significant digits: 2, 40, 0.25, 1.2e+07.
std::string format_count(double value);

// A count for a table people read, three significant digits with an SI prefix and no
// space, so a cell stays one word for scripts that split columns on blanks:
// 512, 4.10k, 80.0M, 33.6M, 1.64G, 2.00T; 1.23e+18 beyond; "n/a" when not finite.
std::string format_quantity(double value);

// 1.25 s, 3.40 ms, 12.0 us, 80.0 ns.
std::string format_seconds(double seconds);

// A fraction as a percentage with one decimal: 0.4567 -> "45.7%".
std::string format_percent(double fraction);

// "GFLOP/s", "Gexchange/s": the rate of a work unit; "FLOP/B" its intensity.
std::string rate_unit(const std::string& work_unit);
std::string intensity_unit(const std::string& work_unit);

// "1 thread", "2 threads".
std::string count_of(long long count, const std::string& noun);

// Machine-readable: the shortest text that reads back to the same double; ""
// when not finite.
std::string exact_number(double value);

} // namespace roofline
