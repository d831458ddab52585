#include "topo/cpu_activity.hpp"

#include <fmt/core.h>

#include <sched.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <charconv>
#include <chrono>
#include <fstream>
#include <sstream>

namespace roofline {

namespace {

std::vector<int> affinity_cpus() {
    cpu_set_t set;
    CPU_ZERO(&set);
    std::vector<int> cpus;
    if (::sched_getaffinity(0, sizeof set, &set) != 0) return cpus;  // empty: every CPU
    for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu)
        if (CPU_ISSET(cpu, &set)) cpus.push_back(cpu);
    return cpus;
}

double own_cpu_seconds() {
    const auto seconds = [](const timeval& t) {
        return static_cast<double>(t.tv_sec) + 1e-6 * static_cast<double>(t.tv_usec);
    };
    double total = 0;
    for (int who : {RUSAGE_SELF, RUSAGE_CHILDREN}) {
        struct rusage usage {};
        if (::getrusage(who, &usage) == 0) total += seconds(usage.ru_utime) + seconds(usage.ru_stime);
    }
    return total;
}

} // namespace

std::optional<CpuTimes> parse_proc_stat(std::string_view text, const std::vector<int>& watched,
                                        double ticks_per_second) {
    if (!(ticks_per_second > 0)) return std::nullopt;
    CpuTimes times;
    std::istringstream lines{std::string(text)};
    std::string line;
    while (std::getline(lines, line)) {
        // "cpu0 user nice system idle iowait irq softirq steal guest guest_nice": the per-CPU lines
        // only (the first, "cpu ", sums every CPU, watched or not).
        if (line.size() < 4 || line.compare(0, 3, "cpu") != 0 || line[3] < '0' || line[3] > '9') continue;
        int cpu = -1;
        const char* begin = line.data() + 3;
        const char* end = line.data() + line.size();
        const auto [after_id, error] = std::from_chars(begin, end, cpu);
        if (error != std::errc{} || (!watched.empty() && std::find(watched.begin(), watched.end(), cpu) == watched.end()))
            continue;
        std::istringstream fields{std::string(after_id, end)};
        double f[8] = {};
        int n = 0;
        while (n < 8 && fields >> f[n]) ++n;
        if (n < 4) continue;  // not the layout described in proc(5)
        for (double& v : f)
            if (!(v >= 0)) v = 0;
        times.busy_seconds += (f[0] + f[1] + f[2] + f[5] + f[6]) / ticks_per_second;
        times.idle_seconds += (f[3] + f[4]) / ticks_per_second;
        times.steal_seconds += f[7] / ticks_per_second;
        ++times.cpus;
    }
    if (times.cpus == 0) return std::nullopt;
    return times;
}

namespace {

std::optional<CpuActivitySnapshot> snapshot_of(std::vector<int> watched) {
    std::ifstream file("/proc/stat");
    if (!file) return std::nullopt;
    std::ostringstream text;
    text << file.rdbuf();
    const auto times = parse_proc_stat(text.str(), watched, static_cast<double>(::sysconf(_SC_CLK_TCK)));
    if (!times) return std::nullopt;
    CpuActivitySnapshot snapshot;
    snapshot.watched = std::move(watched);
    snapshot.cpus = *times;
    snapshot.own_cpu_seconds = own_cpu_seconds();
    snapshot.wall_seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
    return snapshot;
}

} // namespace

std::optional<CpuActivitySnapshot> take_cpu_activity_snapshot() { return snapshot_of(affinity_cpus()); }

std::optional<CpuActivitySnapshot> take_cpu_activity_snapshot(const CpuActivitySnapshot& like) {
    return snapshot_of(like.watched);
}

CpuActivity cpu_activity_between(const CpuActivitySnapshot& before, const CpuActivitySnapshot& after) {
    CpuActivity activity;
    activity.wall_seconds = std::max(0.0, after.wall_seconds - before.wall_seconds);
    // Other CPUs, or a CPU brought on- or offline meanwhile: the sums are not comparable, nothing
    // is judged then.
    if (before.watched != after.watched || before.cpus.cpus != after.cpus.cpus || !(activity.wall_seconds > 0))
        return activity;
    activity.cpus = after.cpus.cpus;
    const double steal = std::max(0.0, after.cpus.steal_seconds - before.cpus.steal_seconds);
    const double busy = std::max(0.0, after.cpus.busy_seconds - before.cpus.busy_seconds);
    const double ours = std::max(0.0, after.own_cpu_seconds - before.own_cpu_seconds);
    // /proc/stat counts in ticks (10 ms): over a short interval a tick read at either end can make
    // more CPUs' worth than the CPUs watched, which cannot be.
    const double watched = static_cast<double>(activity.cpus);
    activity.steal_cpus = std::min(watched, steal / activity.wall_seconds);
    activity.others_cpus = std::min(watched, std::max(0.0, busy - ours) / activity.wall_seconds);
    return activity;
}

std::vector<std::string> cpu_activity_warnings(const CpuActivity& activity, std::string_view what,
                                               std::string_view consequence) {
    std::vector<std::string> out;
    if (activity.cpus <= 0 || !(activity.wall_seconds > 0)) return out;
    const double stolen = activity.steal_cpus * activity.wall_seconds;
    if (activity.steal_share() >= kStealShareWarning && stolen >= kStealFloorSeconds)
        out.push_back(fmt::format(
            "the hypervisor ran something else on these CPUs for {:.1f}% of their time during {} ({:.2f} s stolen "
            "over {} CPU{} in {:.2f} s, /proc/stat steal): {}",
            100 * activity.steal_share(), what, stolen, activity.cpus, activity.cpus == 1 ? "" : "s",
            activity.wall_seconds, consequence));
    const double others = activity.others_cpus * activity.wall_seconds;
    if (activity.others_cpus >= kOthersCpusWarning && others >= kOthersFloorSeconds)
        out.push_back(fmt::format(
            "other processes kept {:.2f} of this process's {} CPU{} busy on average during {} ({:.2f} s of CPU "
            "time in {:.2f} s, /proc/stat less our own): {}",
            activity.others_cpus, activity.cpus, activity.cpus == 1 ? "" : "s", what, others, activity.wall_seconds,
            consequence));
    return out;
}

} // namespace roofline
