// Reading the live snapshots the marker library publishes for `roofline monitor`
// (schema "roofline.monitor/1", PROTOCOL.md "Marker library -> monitor").
#pragma once

#include "core/monitor_sample.hpp"

#include <string>
#include <vector>

namespace roofline::measure {

// Throws MeasureError naming `source` when the text is not such a snapshot.
ProcessSnapshot parse_monitor_snapshot(const std::string& text, const std::string& source);

struct SnapshotScan {
    std::vector<ProcessSnapshot> snapshots;  // of `job` (every job when empty), by pid
    std::vector<std::string> problems;       // files that could not be read or parsed, a sentence each
    std::size_t other_jobs = 0;              // snapshots of other jobs, skipped
};

// Every "<pid>.json" in `dir`. A file replaced or removed while the directory is read is
// skipped silently (the program rewrote or cleaned it up), never an error.
SnapshotScan scan_monitor_dir(const std::string& dir, const std::string& job);

} // namespace roofline::measure
