// What else used the CPUs while we measured: time the hypervisor gave to other guests (steal,
// /proc/stat's 8th column) and time other processes ran on the CPUs this process may use (their
// busy time less our own CPU time). A roof or a program's time measured while either was high is
// low, however carefully it was sampled: an independent check on every timed figure.
#pragma once

#include "core/timing_disturbance.hpp"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace roofline {

// Per-CPU jiffies summed over the CPUs watched.
struct CpuTimes {
    double busy_seconds = 0;   // user, nice, system, irq, softirq (guest time is inside user)
    double steal_seconds = 0;
    double idle_seconds = 0;   // idle and iowait
    int cpus = 0;              // how many of the watched CPUs /proc/stat listed
};

// From /proc/stat's text: the lines "cpuN ..." of the CPUs in `watched` (all of them when empty),
// in seconds at `ticks_per_second` (USER_HZ). nullopt when none of them is listed.
std::optional<CpuTimes> parse_proc_stat(std::string_view text, const std::vector<int>& watched,
                                        double ticks_per_second);

struct CpuActivitySnapshot {
    std::vector<int> watched;  // the CPUs summed (empty: every CPU)
    CpuTimes cpus;
    double own_cpu_seconds = 0;  // this process and the children it waited for (getrusage)
    double wall_seconds = 0;     // steady clock
};

// Now, over the CPUs of the calling thread's affinity mask; nullopt when /proc/stat cannot be read.
std::optional<CpuActivitySnapshot> take_cpu_activity_snapshot();
// Now, over the CPUs an earlier snapshot watched (a thread bound to one core meanwhile still
// compares like with like).
std::optional<CpuActivitySnapshot> take_cpu_activity_snapshot(const CpuActivitySnapshot& like);

// Between two snapshots, as average CPUs busy with each over the interval.
struct CpuActivity {
    double wall_seconds = 0;
    int cpus = 0;
    double steal_cpus = 0;   // CPUs' worth the hypervisor ran something else on
    double others_cpus = 0;  // CPUs' worth other processes used (busy time less ours, at least 0)
    double steal_share() const { return cpus > 0 ? steal_cpus / cpus : 0; }
};
CpuActivity cpu_activity_between(const CpuActivitySnapshot& before, const CpuActivitySnapshot& after);

// Warnings for what ran beside `what` ("the bench run", "the timed native run") over `activity`;
// `consequence` says what it did to the figures. Empty when nothing passed the thresholds.
std::vector<std::string> cpu_activity_warnings(const CpuActivity& activity, std::string_view what,
                                               std::string_view consequence);

} // namespace roofline
