// The directory where monitored programs publish their snapshots (`roofline monitor --dir`).
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace roofline {

// Creates `dir` (and its parents) when missing: the monitor may start before the job's first
// process. Throws std::runtime_error naming the path when it is not a directory the monitor
// can list and read.
void prepare_monitor_dir(const std::string& dir);

// A file in the snapshot directory, which the jobs can write: read without following a
// symbolic link (openat with O_NOFOLLOW relative to the directory, non-blocking), only when
// it is a regular file with no other name (no hard link) of at most `max_bytes`; its owner comes with it, for the caller to
// check against the job's process. `refused` says why not (never the file's contents);
// neither text nor refused: the file is gone.
struct JobFile {
    std::optional<std::string> text;
    unsigned owner_uid = 0;
    std::string refused;
};
JobFile read_job_file(const std::string& dir, const std::string& name, std::uint64_t max_bytes);

} // namespace roofline
