// The perf engine: hardware counters for the whole command (inherit) and, via
// the marker library, per region; one event file per architecture turns them
// into FLOPs and bytes.
#include "measure/child_process.hpp"
#include "measure/cpu_event_set.hpp"
#include "measure/engines_internal.hpp"
#include "measure/event_file.hpp"
#include "measure/sysfs_pmu.hpp"

#include <fmt/core.h>
#include <fmt/format.h>

#include <algorithm>
#include <fstream>
#include <sstream>

namespace roofline::measure::detail {

void run_perf_engine(const MeasureRequest& request, MeasureResult& result, const PerfProbe& probe) {
    if (!probe.hardware)
        throw MeasureError(fmt::format("the perf engine cannot run: {}.\nTo fix: {}", probe.reason, probe.guidance));
    auto cpu_set = cpu_event_set(request.events_dir, request.self_exe);
    const EventSet* set = &cpu_set.set;
    result.notes.push_back(fmt::format("event set {} ({})", set->name, set->description));
    for (auto& w : cpu_set.warnings) result.warnings.push_back(std::move(w));
    const std::vector<EncodedEvent>& events = cpu_set.core_events;
    SystemCounters system;  // memory controller / data fabric: the whole program only
    std::vector<std::string> system_missing;
    for (const auto& e : cpu_set.whole_cpu_events) {
        // Optional by nature (a VM, another model, an older kernel): a note, and the
        // metric's next alternative.
        const std::string spec = e.pfm_name.substr(std::string(kSysfsPrefix).size());
        try {
            if (!system.open(e.alias, spec, resolve_sysfs_event(spec))) system_missing.push_back(e.alias);
        } catch (const std::exception& ex) {
            system_missing.push_back(fmt::format("{} ({})", e.alias, ex.what()));
        }
    }
    ProcessCounters counters;
    TempDir tmp("roofline-measure");
    require_temp_room(tmp);
    // The marker library opens the whole-CPU counters too, and reads them at region boundaries.
    auto region_events = events;
    region_events.insert(region_events.end(), system.opened().begin(), system.opened().end());
    ColdCaches cold(request.repeat.cold_flush_bytes);
    first_native_run(request, result, tmp, cold, {{"ROOFLINE_PERF_EVENTS", perf_events_env(region_events)}}, [&](pid_t pid) {
        counters.open(pid, events);
        system.enable();  // from just before the exec to the exit: no enable_on_exec system-wide
    });
    system.disable();
    // The counts are the first run's; the repeated runs (--repeat) only time the program, and the
    // system-wide counters must not add them up.
    repeat_native_run(request, result, tmp, cold);
    for (const auto& f : counters.failures()) result.warnings.push_back("counter did not open: " + f);
    if (!system_missing.empty())
        result.notes.push_back(fmt::format(
            "{} memory-controller or data-fabric event{} not counted here, e.g. {}", system_missing.size(),
            system_missing.size() == 1 ? "" : "s",
            system.failures().empty() ? system_missing.front() : system.failures().front()));

    // Whole program.
    std::map<std::string, double> values;
    auto read = counters.read();
    for (const auto& [alias, v] : system.read()) read[alias] = v;
    for (const auto& [alias, v] : read) {
        // The marker library's calibration ran in the program's threads, which these count too.
        const auto cal = result.calibration_events.find(alias);
        values[alias] = cal == result.calibration_events.end() ? v.value : std::max(0.0, v.value - cal->second);
        result.multiplexing[alias] = v.running_share;
        if (v.running_share < 1)
            result.warnings.push_back(fmt::format("{} was multiplexed: counted {:.0f}% of the time, scaled up",
                                                  alias, 100 * v.running_share));
    }
    if (!result.calibration_events.empty())
        result.notes.push_back("the whole program's counters less what the marker library's calibration of its "
                               "calls counted at its start (its counters' reads around it)");
    RegionCounts program;
    program.name = "(program)";
    program.events = values;
    std::map<std::string, std::string> used;
    apply_event_metrics(program, evaluate_metrics(*set, values, &used));
    // Regions: the marker library filled raw counters (whole-CPU ones too); the same formulas.
    std::map<std::string, std::string> region_used;
    for (auto& c : result.counts) apply_event_metrics(c, evaluate_metrics(*set, c.events, &region_used));
    // Say where the DRAM bytes came from: a memory controller or data fabric (system-wide,
    // the whole program), or last-level misses x line size (a lower bound: no prefetches,
    // no write-backs, on most CPUs).
    if (const auto it = used.find("bytes_DRAM"); it != used.end())
        result.notes.push_back(fmt::format(
            "DRAM bytes of the whole program = {}{}", it->second,
            system.empty() ? std::string(" (core counters)")
                           : std::string(" (memory-controller or data-fabric counters, system-wide: other "
                                         "processes' traffic on the same packages counts too)")));
    if (const auto it = region_used.find("bytes_DRAM"); it != region_used.end() && !result.counts.empty()) {
        const auto names = Formula::parse(it->second).names();
        const bool whole_cpu = std::any_of(system.opened().begin(), system.opened().end(), [&](const EncodedEvent& e) {
            return std::find(names.begin(), names.end(), e.alias) != names.end();
        });
        result.notes.push_back(fmt::format(
            "DRAM bytes of marker regions = {} ({})", it->second,
            whole_cpu ? "whole-CPU counters read when a thread opens and closes the region: the largest count any "
                        "of its threads saw, every process's traffic on those packages included"
                      : "core counters of the region's threads"));
    }
    result.counts.push_back(std::move(program));
}

} // namespace roofline::measure::detail
