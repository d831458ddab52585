// Where the tool's own files are: the event files of the perf engine, the Valgrind tool and
// the helper programs. Found from an environment override, else relative to the executable
// (/proc/self/exe), so an installed tree can be moved (issue 15): never through a path of the
// source or build tree compiled in. The two layouts searched:
//   installed   <prefix>/bin/roofline, <prefix>/libexec/roofline/{vgtool/,roofline-gpubench,
//               roofline-offload.so,roofline-netbench}, <prefix>/share/roofline/events/
//   build tree  <build>/roofline, <build>/{vgtool/,roofline-gpubench,roofline-offload.so,
//               roofline-netbench},
//               <build>/share/roofline/events/ (a copy of data/events made by the build)
#pragma once

#include <string>

namespace roofline {

// This program's own path (/proc/self/exe); "" when the system does not say.
std::string self_executable();

// This executable as a measurement's setup names it: version, size and modification time
// ("0.1.0 9175536:1764242340"; -1 for what cannot be read): another build measures anew.
std::string executable_identity();

// $ROOFLINE_EVENTS_DIR, else <exe dir>/../share/roofline/events (installed), else
// <exe dir>/share/roofline/events (build tree). Empty when none is there.
std::string events_dir(const std::string& self_exe);

// The directory holding the Valgrind tool (roofline-amd64-linux) and the links to Valgrind's
// core files next to it (VALGRIND_LIB): $ROOFLINE_VGTOOL_DIR, else <exe dir>/vgtool (build
// tree), else <exe dir>/../libexec/roofline/vgtool (installed). Empty, with `why` set, when
// the tool is not there or Valgrind's core files it links to are missing.
std::string vgtool_dir(const std::string& self_exe, std::string& why);

// The GPU benchmark program (roofline-gpubench, built when nvcc was found): $ROOFLINE_GPUBENCH,
// else <exe dir>/roofline-gpubench, else <exe dir>/../libexec/roofline/roofline-gpubench. Empty,
// with `why` set, when none is there.
std::string gpubench_path(const std::string& self_exe, std::string& why);
// The offload injection library (roofline-offload.so, built when CUPTI's headers were found):
// $ROOFLINE_OFFLOAD_LIB, else next to the executable or in ../libexec/roofline.
std::string offload_library_path(const std::string& self_exe, std::string& why);
// The network benchmark (roofline-netbench, built when MPI was found): $ROOFLINE_NETBENCH, else
// next to the executable or in ../libexec/roofline, as the GPU benchmark.
std::string netbench_path(const std::string& self_exe, std::string& why);

} // namespace roofline
