// The marker regions that other processes of the command opened: forked children, and programs the
// command started that load the marker library too. Their regions are not written (the results
// file is the process measure started, and the images it exec'd); the library names them in
// "<file>.forked" (PROTOCOL.md, Fork), and they are said here, by name, in a warning.
#pragma once

#include <string>
#include <vector>

namespace roofline::measure::detail {

// "<pid><TAB><region>" lines (a forked child) and "<pid><TAB><region><TAB><program>" lines (a
// program the command started) to at most two warnings, appended to `warnings`; nothing for an
// empty text. Lines of another shape are skipped.
void warn_child_regions(const std::string& text, std::vector<std::string>& warnings);

} // namespace roofline::measure::detail
