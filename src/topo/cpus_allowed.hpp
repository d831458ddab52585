// The CPUs a program started now may run on at once: its affinity mask (taskset -c 0, numactl
// --physcpubind, a batch job's binding), inherited from this process across fork and exec, and at
// most its cgroup's CPU quota rounded up (docker --cpus=1: 8 threads share one CPU's time). Rates
// that add up per running thread (one dependent chain each) add up over at most this many.
#pragma once

#include <optional>
#include <string>

namespace roofline {

struct CpusAllowed {
    int cpus = 0;           // min(affinity_cpus, ceil(quota)); 0: unknown
    int affinity_cpus = 0;  // the affinity mask's CPUs; 0: unknown
    std::optional<double> quota_cpus;  // the cgroup's quota in CPUs, where one is set
    std::string quota_where;           // the file that sets it
};

// From an affinity mask's CPU count (0: unknown) and a cgroup quota in CPUs: the fewer of the
// mask's CPUs and the quota rounded up (1.5 CPUs of time lets 2 threads run at once, in bursts);
// 0 when neither is known. A quota counts for at least 1 CPU.
int cpus_allowed_from(int affinity_cpus, std::optional<double> quota_cpus);

// This process's, now (sched_getaffinity and the cgroup's quota): what a child it forks starts with.
CpusAllowed cpus_allowed_now();

} // namespace roofline
