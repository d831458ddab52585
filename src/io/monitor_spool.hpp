// Where `roofline monitor` keeps the samples the store did not take (refused, or the store
// failed: a full disk, a lock, a store that went away): one JSON line each, appended to a file
// the user can read, so a sample is never dropped without a trace. Each line:
//   {"schema": "roofline.monitor-spool/1", "set": "job ID NODE", "job": ID,
//    "outcome": "refused" | "not stored", "why": "...", "points": <a roofline.points/1 document>}
// (`jq -c .points` gives a points file of the sample; non-finite values are written as null).
#pragma once

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace roofline {

// The directories a spool file may go to, best first: $STATE_DIRECTORY (systemd's
// StateDirectory=, the node service's), $XDG_STATE_HOME/roofline (absolute only), else
// ~/.local/state/roofline; then $TMPDIR or /tmp, for when the first is on the full disk too.
std::vector<std::string> monitor_spool_dirs();

// Appends lines to one file, created on first use in the first of `dirs` where it can be
// created: DIR/FILE_NAME, the directory made 0700 when missing, the file 0600, created
// exclusively (never appending to a file someone else made) and never through a link. A
// line that cannot be written whole is taken back (the file stays valid JSON lines).
class MonitorSpool {
public:
    MonitorSpool(std::vector<std::string> dirs, std::string file_name);
    // Throws std::runtime_error saying why (with each place tried) when no place takes it.
    void append(const nlohmann::json& line);
    // The file lines went to ("" before the first).
    const std::string& path() const { return path_; }

private:
    bool append_to(const std::string& path, const std::string& text, bool create, std::string& error);

    std::vector<std::string> dirs_;
    std::string file_name_;
    std::string path_;
};

} // namespace roofline
