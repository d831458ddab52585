#include "measure/perf_events.hpp"

#include "core/multiplexed_count.hpp"
#include "io/text_file.hpp"
#include "measure/sysfs_pmu.hpp"

#include <fmt/core.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <linux/perf_event.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#ifdef ROOFLINE_HAVE_LIBPFM
#include <perfmon/pfmlib_perf_event.h>
#endif

namespace roofline::measure {
namespace {

long sys_perf_event_open(perf_event_attr* attr, pid_t pid, int cpu, int group_fd, unsigned long flags) {
    return ::syscall(SYS_perf_event_open, attr, pid, cpu, group_fd, flags);
}

perf_event_attr counting_attr(std::uint32_t type, std::uint64_t config, std::uint64_t config1) {
    perf_event_attr attr;
    std::memset(&attr, 0, sizeof attr);
    attr.size = sizeof attr;
    attr.type = type;
    attr.config = config;
    attr.config1 = config1;
    attr.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
    return attr;
}

perf_event_attr attr_for(const EncodedEvent& e) {
    perf_event_attr attr = counting_attr(e.type, e.config, e.config1);
    attr.exclude_kernel = 1;  // user space only: allowed at perf_event_paranoid 2
    attr.exclude_hv = 1;
    return attr;
}

struct Generic {
    const char* name;
    std::uint32_t type;
    std::uint64_t config;
};
constexpr Generic generic_events[] = {
    {"perf::CYCLES", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES},
    {"perf::INSTRUCTIONS", PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS},
    {"perf::CACHE-MISSES", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_MISSES},
    {"perf::TASK-CLOCK", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK},
    {"perf::CONTEXT-SWITCHES", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES},
};

#ifdef ROOFLINE_HAVE_LIBPFM
bool pfm_ready() {
    static const bool ok = pfm_initialize() == PFM_SUCCESS;
    return ok;
}
#endif

} // namespace

bool have_libpfm() {
#ifdef ROOFLINE_HAVE_LIBPFM
    return true;
#else
    return false;
#endif
}

std::optional<EncodedEvent> encode_event(const std::string& alias, const std::string& pfm_name, std::string& error) {
    EncodedEvent e;
    e.alias = alias;
    e.pfm_name = pfm_name;
#ifdef ROOFLINE_HAVE_LIBPFM
    if (pfm_ready()) {
        perf_event_attr attr;
        std::memset(&attr, 0, sizeof attr);
        pfm_perf_encode_arg_t arg;
        std::memset(&arg, 0, sizeof arg);
        arg.attr = &attr;
        arg.size = sizeof arg;
        const int rc = pfm_get_os_event_encoding(pfm_name.c_str(), PFM_PLM3, PFM_OS_PERF_EVENT, &arg);
        if (rc == PFM_SUCCESS) {
            e.type = attr.type;
            e.config = attr.config;
            e.config1 = attr.config1;
            return e;
        }
        error = fmt::format("libpfm4 cannot encode '{}': {}", pfm_name, pfm_strerror(rc));
        return std::nullopt;
    }
#endif
    for (const auto& g : generic_events) {
        if (pfm_name == g.name) {
            e.type = g.type;
            e.config = g.config;
            return e;
        }
    }
    error = have_libpfm() ? fmt::format("libpfm4 failed to initialize; '{}' is not a generic perf event", pfm_name)
                          : fmt::format("'{}' needs libpfm4 (built without it)", pfm_name);
    return std::nullopt;
}

std::string perf_events_env(const std::vector<EncodedEvent>& events) {
    std::string out;
    for (const auto& e : events) {
        if (!out.empty()) out += ',';
        out += fmt::format("{}={}:{:#x}", e.alias, e.type, e.config);
        if (e.config1 || e.config2) out += fmt::format(":{:#x}", e.config1);
        if (e.config2) out += fmt::format(":{:#x}", e.config2);
        if (e.cpu >= 0) out += fmt::format("@{}", e.cpu);
    }
    return out;
}

std::optional<int> perf_event_paranoid() {
    const auto text = read_file_if_exists("/proc/sys/kernel/perf_event_paranoid");
    if (!text) return std::nullopt;
    try {
        return std::stoi(*text);
    } catch (const std::exception&) {
        return std::nullopt;
    }
}

PerfProbe probe_perf() {
    PerfProbe probe;
    auto try_open = [](std::uint32_t type, std::uint64_t config, int& err) {
        EncodedEvent e;
        e.type = type;
        e.config = config;
        auto attr = attr_for(e);
        const long fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
        if (fd < 0) {
            err = errno;
            return false;
        }
        ::close(static_cast<int>(fd));
        return true;
    };
    int sw_err = 0, hw_err = 0;
    probe.software = try_open(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK, sw_err);
    probe.hardware = try_open(PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS, hw_err);
    if (probe.hardware) return probe;
    const auto paranoid = perf_event_paranoid();
    const std::string paranoid_text = paranoid ? std::to_string(*paranoid) : "unreadable";
    if (!probe.software || hw_err == EACCES || hw_err == EPERM) {
        const int err = probe.software ? hw_err : sw_err;
        probe.reason = fmt::format("perf_event_open is not permitted ({}; perf_event_paranoid = {})",
                                   std::strerror(err), paranoid_text);
        probe.guidance =
            "allow user-space counters with 'sudo sysctl kernel.perf_event_paranoid=2' (1 also counts the "
            "kernel), or grant CAP_PERFMON; in a container, run it with --cap-add PERFMON or a seccomp profile "
            "that allows perf_event_open";
    } else {
        probe.reason = fmt::format(
            "no hardware performance counters are exposed to perf_event_open ({}; perf_event_paranoid = {}; "
            "software events work)",
            std::strerror(hw_err), paranoid_text);
        probe.guidance =
            "this usually is a virtual machine without a virtual PMU: enable it in the hypervisor (KVM/libvirt: "
            "<cpu mode='host-passthrough'> with <feature policy='require' name='pmu'/> or -cpu host,pmu=on; "
            "VMware: 'virtualize CPU performance counters'; cloud VMs: an instance type with a PMU) and check "
            "with 'perf stat -e instructions true'; meanwhile use --engine instrument";
    }
    return probe;
}

CounterSet::~CounterSet() {
    for (const auto& o : fds_) ::close(o.fd);
}

std::map<std::string, CounterValue> CounterSet::read() const {
    std::map<std::string, CounterValue> out;
    for (const auto& o : fds_) {
        std::uint64_t buf[3] = {0, 0, 0};  // value, time_enabled, time_running
        if (::read(o.fd, buf, sizeof buf) != static_cast<ssize_t>(sizeof buf)) continue;
        const MultiplexedCount scaled = scale_multiplexed(static_cast<double>(buf[0]), buf[1], buf[2]);
        auto [it, first] = out.try_emplace(o.alias);
        it->second.value += scaled.value;
        // 0: never scheduled, no count
        it->second.running_share = first ? scaled.running_share : std::min(it->second.running_share, scaled.running_share);
    }
    return out;
}

int ProcessCounters::open(pid_t pid, const std::vector<EncodedEvent>& events, bool enable_on_exec) {
    for (const auto& e : events) {
        auto attr = attr_for(e);
        attr.inherit = 1;  // threads and children of the command count too
        if (enable_on_exec) {
            attr.disabled = 1;
            attr.enable_on_exec = 1;
        }
        const long fd = sys_perf_event_open(&attr, pid, -1, -1, PERF_FLAG_FD_CLOEXEC);
        if (fd < 0) {
            failures_.push_back(fmt::format("{} ({}): {}", e.alias, e.pfm_name, std::strerror(errno)));
            continue;
        }
        fds_.push_back({e.alias, static_cast<int>(fd)});
    }
    return static_cast<int>(fds_.size());
}

int ThreadCounters::open(pid_t tid, const std::vector<EncodedEvent>& events) {
    for (const auto& e : events) {
        auto attr = attr_for(e);
        const long fd = sys_perf_event_open(&attr, tid, -1, -1, PERF_FLAG_FD_CLOEXEC);
        if (fd < 0) {
            failures_.push_back(fmt::format("{} ({}): {}", e.alias, e.pfm_name, std::strerror(errno)));
            continue;
        }
        fds_.push_back({e.alias, static_cast<int>(fd)});
    }
    return static_cast<int>(fds_.size());
}

bool SystemCounters::open(const std::string& alias, const std::string& spec, const std::vector<SysfsEvent>& instances) {
    std::vector<Open> opened;
    std::vector<EncodedEvent> encoded;
    for (const auto& e : instances) {
        for (const int cpu : e.cpus) {
            perf_event_attr attr = counting_attr(e.type, e.config, e.config1);
            attr.config2 = e.config2;
            attr.disabled = 1;  // uncore PMUs refuse exclude_* and inherit: none set
            const long fd = sys_perf_event_open(&attr, -1, cpu, -1, PERF_FLAG_FD_CLOEXEC);
            if (fd < 0) {
                const int err = errno;
                failures_.push_back(fmt::format("{} ({} on {}, CPU {}): {}{}", alias, spec, e.pmu, cpu,
                                                std::strerror(err),
                                                err == EACCES || err == EPERM
                                                    ? " (system-wide counters need perf_event_paranoid <= 0 or "
                                                      "CAP_PERFMON)"
                                                    : ""));
                for (const auto& o : opened) ::close(o.fd);
                return false;
            }
            opened.push_back({alias, static_cast<int>(fd)});
            encoded.push_back({alias, spec, e.type, e.config, e.config1, e.config2, cpu});
        }
    }
    fds_.insert(fds_.end(), opened.begin(), opened.end());
    opened_.insert(opened_.end(), encoded.begin(), encoded.end());
    return true;
}

void SystemCounters::enable() {
    for (const auto& o : fds_) ::ioctl(o.fd, PERF_EVENT_IOC_ENABLE, 0);
}

void SystemCounters::disable() {
    for (const auto& o : fds_) ::ioctl(o.fd, PERF_EVENT_IOC_DISABLE, 0);
}

} // namespace roofline::measure
