// The perf event set of this CPU, ready to open: the event file chosen for it (data/events,
// event_file.hpp), its core events encoded (perf_events.hpp) and its whole-CPU (sysfs) events
// apart. Shared by the perf engine and the monitor's counter path. And the step after
// counting: event values -> FLOPs and bytes, through the file's formulas.
#pragma once

#include "measure/engine.hpp"
#include "measure/event_file.hpp"
#include "measure/perf_events.hpp"

#include <map>
#include <string>
#include <vector>

namespace roofline::measure {

struct CpuEventSet {
    EventSet set;
    std::vector<EncodedEvent> core_events;   // opened per process or thread
    std::vector<EventDef> whole_cpu_events;  // "sysfs:" events: memory controllers, data fabric
    std::vector<std::string> warnings;       // events this libpfm cannot encode
};

// `dir`: the event files (empty: the installed or build tree's, install_layout). Throws
// MeasureError naming the directory when there are no files or none matches this CPU.
CpuEventSet cpu_event_set(const std::string& dir, const std::string& self_exe);

// The file's metrics (flops, flops_dp, flops_sp, flops_<width>, bytes_DRAM, cycles,
// instructions) into counts' fields.
void apply_event_metrics(RegionCounts& counts, const std::map<std::string, double>& metrics);

} // namespace roofline::measure
