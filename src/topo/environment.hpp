// The conditions a measurement ran under (hypervisor, governor, turbo, load),
// read at run time and turned into warnings instead of being trusted.
#pragma once

#include "core/machine_model.hpp"
#include "topo/cpu_features.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace roofline {

// Fills hostname, hypervisor, governor, turbo, 1-minute load average, compiler,
// tool version and an ISO 8601 UTC timestamp, and adds a warning for each
// condition that makes figures less repeatable. `cores` is the number of
// physical cores (the load-average warning fires above 0.5 x cores).
// Clock fields, mode and duration are left for the caller.
Environment collect_environment(const CpuFeatures& features, int cores);

// Warnings (zero or one) when the clock measured before and after a run differ
// by more than 3 %: the core changed speed while being measured.
std::vector<std::string> clock_drift_warning(double before_ghz, double after_ghz);

// This machine's host name; empty when it cannot be read.
std::string host_name();

// The node this process runs on, as MPI jobs and clusters name it: the host
// name, or ROOFLINE_NODE_NAME when set (a test-only override that simulates
// several nodes on one machine).
std::string node_name();

// Memory a run may take without pushing the system into swap or the OOM killer: the kernel's
// MemAvailable estimate (/proc/meminfo), else the free pages, at most what the process's cgroup
// memory limit leaves (cgroup_limits).
double available_memory_bytes();

// The memory the kernel manages in all (MemTotal in /proc/meminfo), in bytes; 0 when it cannot be read.
std::uint64_t total_memory_bytes();

// The current time as ISO 8601 UTC, e.g. "2026-11-05T14:03:27Z".
std::string iso8601_utc_now();

// The first line of a small system file (/proc, /sys), without the newline;
// nullopt when it cannot be read (absent on this kernel, VM or container).
std::optional<std::string> read_first_line(const std::string& path);

} // namespace roofline
