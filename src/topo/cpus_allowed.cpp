#include "topo/cpus_allowed.hpp"

#include "topo/cgroup_limits.hpp"

#include <sched.h>

#include <algorithm>
#include <cmath>

namespace roofline {

int cpus_allowed_from(int affinity_cpus, std::optional<double> quota_cpus) {
    int cpus = std::max(0, affinity_cpus);
    if (quota_cpus && *quota_cpus > 0) {
        // A hair over a whole number (rounding in quota / period) is that number.
        const int by_quota = std::max(1, static_cast<int>(std::ceil(*quota_cpus - 1e-6)));
        cpus = cpus > 0 ? std::min(cpus, by_quota) : by_quota;
    }
    return cpus;
}

CpusAllowed cpus_allowed_now() {
    CpusAllowed out;
    cpu_set_t set;
    CPU_ZERO(&set);
    if (::sched_getaffinity(0, sizeof set, &set) == 0) out.affinity_cpus = CPU_COUNT(&set);
    if (const auto quota = cgroup_cpu_quota()) {
        out.quota_cpus = quota->cpus;
        out.quota_where = quota->where;
    }
    out.cpus = cpus_allowed_from(out.affinity_cpus, out.quota_cpus);
    return out;
}

} // namespace roofline
