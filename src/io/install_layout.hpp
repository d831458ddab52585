// Where the tool's own files are: the event files of the perf engine and the
// Valgrind tool, found from an environment override, the source tree of a
// development build, or the install prefix relative to the executable.
#pragma once

#include <string>

namespace roofline {

// This program's own path (/proc/self/exe); "" when the system does not say.
std::string self_executable();

// $ROOFLINE_EVENTS_DIR, else the source tree's data/events, else
// <exe dir>/../share/roofline/events, else "data/events".
std::string events_dir(const std::string& self_exe);

// The directory holding the Valgrind tool (roofline-amd64-linux):
// $ROOFLINE_VGTOOL_DIR, else <exe dir>/vgtool. Empty, with `why` set, when it
// is not there.
std::string vgtool_dir(const std::string& self_exe, std::string& why);

// The GPU benchmark program (roofline-gpubench, built when nvcc was found): $ROOFLINE_GPUBENCH,
// else <exe dir>/roofline-gpubench, else <exe dir>/../libexec/roofline/roofline-gpubench. Empty,
// with `why` set, when none is there.
std::string gpubench_path(const std::string& self_exe, std::string& why);
// The network benchmark (roofline-netbench, built when MPI was found): $ROOFLINE_NETBENCH, else
// next to the executable or in ../libexec/roofline, as the GPU benchmark.
std::string netbench_path(const std::string& self_exe, std::string& why);

} // namespace roofline
