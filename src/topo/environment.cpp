#include "topo/environment.hpp"

#include "topo/cgroup_limits.hpp"

#include <fmt/core.h>

#include <unistd.h>

#include <algorithm>
#include <array>
#include <climits>
#include <cmath>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <string_view>
#include <utility>

#ifndef ROOFLINE_VERSION
#define ROOFLINE_VERSION "unknown"
#endif
#ifndef ROOFLINE_COMPILER
#define ROOFLINE_COMPILER "unknown"
#endif

namespace roofline {

namespace {

// CPUID hypervisor vendor signatures and the names people know them by.
constexpr std::array<std::pair<std::string_view, std::string_view>, 9> kHypervisorNames{{
    {"KVMKVMKVM", "KVM"},
    {"Linux KVM Hv", "KVM (Hyper-V enlightenments)"},
    {"Microsoft Hv", "Hyper-V"},
    {"VMwareVMware", "VMware"},
    {"XenVMMXenVMM", "Xen"},
    {"TCGTCGTCGTCG", "QEMU TCG"},
    {"VBoxVBoxVBox", "VirtualBox"},
    {"bhyve bhyve", "bhyve"},
    {"ACRNACRNACRN", "ACRN"},
}};

std::string hypervisor_name(const CpuFeatures& features) {
    if (features.hypervisor) {
        for (const auto& [signature, name] : kHypervisorNames)
            if (features.hypervisor_vendor == signature) return std::string(name);
        return features.hypervisor_vendor.empty() ? "unknown" : features.hypervisor_vendor;
    }
    // Xen PV guests and non-x86 guests have no CPUID hypervisor bit.
    return read_first_line("/sys/hypervisor/type").value_or("");
}


// "on", "off" or "" when neither the intel_pstate nor the generic cpufreq knob exists.
std::string turbo_state() {
    if (auto no_turbo = read_first_line("/sys/devices/system/cpu/intel_pstate/no_turbo"))
        return *no_turbo == "0" ? "on" : "off";
    if (auto boost = read_first_line("/sys/devices/system/cpu/cpufreq/boost"))
        return *boost == "1" ? "on" : "off";
    return "";
}

double one_minute_load_average() {
    std::ifstream loadavg("/proc/loadavg");
    double one_minute = 0;
    if (!(loadavg >> one_minute)) return 0;
    return one_minute;
}

} // namespace

std::optional<std::string> read_first_line(const std::string& path) {
    std::ifstream file(path);
    std::string line;
    if (!file || !std::getline(file, line)) return std::nullopt;
    while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) line.pop_back();
    return line;
}

double available_memory_bytes() {
    std::ifstream meminfo("/proc/meminfo");
    std::string key;
    double kib = 0;
    std::string unit;
    double available = -1;
    while (meminfo >> key >> kib >> unit)
        if (key == "MemAvailable:") {
            available = kib * 1024;
            break;
        }
    if (available < 0)
        available = static_cast<double>(::sysconf(_SC_AVPHYS_PAGES)) * static_cast<double>(::sysconf(_SC_PAGESIZE));
    // A container's memory limit is not in /proc/meminfo: past it the OOM killer ends the process.
    if (const auto room = cgroup_memory_room(); room && *room < available) available = *room;
    return available;
}

std::uint64_t total_memory_bytes() {
    std::ifstream meminfo("/proc/meminfo");
    std::string key, unit;
    std::uint64_t kib = 0;
    while (meminfo >> key >> kib >> unit)
        if (key == "MemTotal:") return kib * 1024;
    return 0;
}

std::string iso8601_utc_now() {
    const std::time_t now = std::time(nullptr);
    std::tm utc{};
    gmtime_r(&now, &utc);
    char text[32];
    std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &utc);
    return text;
}

std::string host_name() {
    char name[HOST_NAME_MAX + 1] = {};
    if (gethostname(name, sizeof name - 1) != 0) return "";
    return name;
}

std::string node_name() {
    const char* simulated = std::getenv("ROOFLINE_NODE_NAME");
    return simulated && *simulated ? std::string(simulated) : host_name();
}

Environment collect_environment(const CpuFeatures& features, int cores) {
    Environment env;
    env.hostname = host_name();
    env.hypervisor = hypervisor_name(features);
    env.governor = read_first_line("/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor").value_or("");
    env.turbo = turbo_state();
    env.load_average = one_minute_load_average();
    env.compiler = ROOFLINE_COMPILER;
    env.tool_version = ROOFLINE_VERSION;
    env.timestamp = iso8601_utc_now();

    if (!env.hypervisor.empty())
        env.warnings.push_back(fmt::format(
            "running under a hypervisor ({}): the host may share these cores and set their clock, "
            "so figures can vary between runs",
            env.hypervisor));
    if (!env.governor.empty() && env.governor != "performance")
        env.warnings.push_back(fmt::format(
            "CPU frequency governor is '{}', not 'performance': the clock may change during the run",
            env.governor));
    if (env.turbo == "on")
        env.warnings.push_back("turbo/boost is on: the clock depends on load and temperature");
    // A CPU quota under the cores: bursts (bench samples 0.5-2 ms) see every core at full speed,
    // sustained work gets the quota (4 threads under --cpus=1 run a quarter of the time each).
    if (const auto quota = cgroup_cpu_quota(); quota && quota->cpus < cores - 0.01)
        env.warnings.push_back(fmt::format(
            "this process's cgroup allows {:.2f} CPUs of CPU time over its {} core{} ({}): threads beyond that run "
            "in bursts and are then throttled, so the all-core roofs are the cores' speed in those bursts, while "
            "sustained work on all cores gets {:.2f} CPUs' worth on average",
            quota->cpus, cores, cores == 1 ? "" : "s", quota->where, quota->cpus));
    const double busy_threshold = 0.5 * std::max(cores, 1);
    if (env.load_average > busy_threshold)
        env.warnings.push_back(fmt::format(
            "load average {:.2f} is above {:.1f} (half of {} core{}): other work competes for the machine",
            env.load_average, busy_threshold, cores, cores == 1 ? "" : "s"));
    return env;
}

std::vector<std::string> clock_drift_warning(double before_ghz, double after_ghz) {
    if (before_ghz <= 0 || after_ghz <= 0) return {};
    const double change = (after_ghz - before_ghz) / before_ghz;
    if (std::fabs(change) <= 0.03) return {};
    return {fmt::format("core clock changed from {:.2f} GHz before to {:.2f} GHz after the run ({:+.1f} %): "
                        "results mix two speeds",
                        before_ghz, after_ghz, 100 * change)};
}

} // namespace roofline
