// The directory where monitored programs publish their snapshots (`roofline monitor --dir`).
#pragma once

#include <string>

namespace roofline {

// Creates `dir` (and its parents) when missing: the monitor may start before the job's first
// process. Throws std::runtime_error naming the path when it is not a directory the monitor
// can list and read.
void prepare_monitor_dir(const std::string& dir);

} // namespace roofline
