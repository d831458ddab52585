// A helper command's standard output (ldd, objdump, valgrind -v): run without a shell, its
// standard error dropped, read to the end and waited for. For the checks measure makes of a
// program before it runs it (measure/evex_scan, measure/marker_presence).
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace roofline::measure {

// argv[0] is a path (found beforehand); nullopt when the command cannot be started. Its exit
// status is not judged: callers read what it printed.
std::optional<std::string> command_output(const std::vector<std::string>& argv);

} // namespace roofline::measure
