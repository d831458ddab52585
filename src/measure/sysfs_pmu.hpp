// Kernel PMUs as sysfs describes them (/sys/bus/event_source/devices/<pmu>/: type,
// cpumask, format/<term>, events/<name>), for the counters libpfm4 does not know:
// memory controllers and data fabrics (uncore), counted system-wide. An event is
// written as perf writes it: "PMU/NAME/" for a named event the kernel provides for
// this CPU (uncore_imc_0/cas_count_read/), or "PMU/TERM=VALUE,.../" (amd_df/event=0x07,
// umask=0x38/). A PMU name ending in '*' takes every instance of that prefix which
// has the event (uncore_imc_* -> uncore_imc_0 ... uncore_imc_5); their counts add up.
// Reading sysfs is all it does: opening the counters is ProcessCounters' neighbour
// SystemCounters (perf_events.hpp).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace roofline::measure {

struct SysfsEvent {
    std::string pmu;         // the instance: "uncore_imc_0"
    std::uint32_t type = 0;  // perf_event_attr.type
    std::uint64_t config = 0, config1 = 0, config2 = 0;
    std::vector<int> cpus;   // where to open it: one CPU per package or die (the PMU's cpumask)
};

// The instances of `spec` ("PMU/EVENT/") under `root` (the devices directory).
// Throws std::runtime_error saying what is missing or malformed.
std::vector<SysfsEvent> resolve_sysfs_event(const std::string& spec,
                                            const std::string& root = "/sys/bus/event_source/devices");

// "0-3,8,10-11" -> {0,1,2,3,8,10,11}; throws std::runtime_error when malformed.
std::vector<int> parse_cpu_list(const std::string& text);

} // namespace roofline::measure
