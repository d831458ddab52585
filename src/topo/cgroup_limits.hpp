// What a cgroup allows this process beyond what the machine has: its CPU quota (containers'
// --cpus, systemd's CPUQuota, a batch job's limit: CPU time per period, in CPUs; threads beyond
// it run in bursts and are then throttled, so a short burst shows the cores' full speed while
// sustained work gets the quota), and its memory limit (past it the OOM killer ends the process
// however much memory /proc/meminfo shows free).
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>

namespace roofline {

struct CpuQuota {
    double cpus = 0;    // quota / period, the tightest over the cgroup and its ancestors
    std::string where;  // the file that sets it, e.g. "/sys/fs/cgroup/cpu.max: 100000 100000"
};

// From /proc/self/cgroup's text and a reader of files under `root`: cgroup v2 (the "0::PATH"
// line, cpu.max "QUOTA PERIOD" or "max PERIOD") or v1 (the line naming the cpu controller,
// cpu.cfs_quota_us and cpu.cfs_period_us; -1: none), at the process's cgroup and each ancestor.
// nullopt when no level sets a quota.
std::optional<CpuQuota> cgroup_cpu_quota(std::string_view proc_self_cgroup,
                                         const std::function<std::optional<std::string>(const std::string&)>& read,
                                         const std::string& root = "/sys/fs/cgroup");
// This process's.
std::optional<CpuQuota> cgroup_cpu_quota();

// The bytes the process's cgroup lets it allocate before its limit: limit - usage, the tightest
// over the cgroup and its ancestors; v2 memory.max and memory.current, v1
// memory.limit_in_bytes and memory.usage_in_bytes ("max", or v1's near-2^63 "no limit": none).
// nullopt when no level sets a limit.
std::optional<double> cgroup_memory_room(std::string_view proc_self_cgroup,
                                         const std::function<std::optional<std::string>(const std::string&)>& read,
                                         const std::string& root = "/sys/fs/cgroup");
std::optional<double> cgroup_memory_room();

} // namespace roofline
