// Per-architecture perf event sets as data (data/events/<arch>.txt): which
// libpfm4 events to open and the formulas that turn them into FLOPs, bytes,
// cycles. Parsing, matching and evaluation are pure.
#pragma once

#include "measure/formula.hpp"

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace roofline::measure {

// "when families=25 models=0x00-0x0f,0x20-0x5f; families=23": an event only some CPUs
// of a set have (the data-fabric events of one Zen generation); any clause may match.
struct EventCondition {
    std::vector<int> families;  // empty: any
    std::vector<int> models;    // empty: any
};

struct EventDef {
    std::string alias;     // the name formulas use
    // libpfm4 event string, e.g. "FP_ARITH:SCALAR_DOUBLE"; or "sysfs:PMU/EVENT/", a
    // kernel PMU counted system-wide (sysfs_pmu.hpp: memory controllers, data fabric)
    std::string pfm_name;
    std::vector<EventCondition> when;  // empty: every CPU the set matches
};

inline constexpr const char* kSysfsPrefix = "sysfs:";

struct MetricDef {
    std::string name;  // "flops", "flops_dp", "flops_256", "bytes_DRAM", "cycles" ...
    Formula formula;
};

struct EventSet {
    std::string name;
    std::string description;
    std::string vendor = "*";        // "GenuineIntel", "AuthenticAMD", "*"
    std::vector<int> families;       // empty: any
    std::vector<int> models;         // empty: any
    std::vector<EventDef> events;
    std::vector<MetricDef> metrics;  // in file order; a repeated name is an alternative
};

struct CpuIdentity {
    std::string vendor;
    int family = 0;
    int model = 0;
};

// Throws FormulaError "SOURCE:LINE: ..." for a malformed line, an unknown key,
// a duplicate alias or a formula naming neither an event nor an earlier metric.
EventSet parse_event_file(const std::string& text, const std::string& source = "<events>");

bool matches(const EventSet& set, const CpuIdentity& cpu);
// The event's `when` clauses allow this CPU (none: always).
bool applies(const EventDef& event, const CpuIdentity& cpu);
// The most specific matching set (vendor + family beats a wildcard), or nullopt.
std::optional<EventSet> select_event_set(const std::vector<EventSet>& sets, const CpuIdentity& cpu);

// Metrics from event values (aliases -> counts). Events missing from `values`
// did not open; per metric name the first alternative whose names all have
// values wins, and a metric with none is left out.
// `used`, when given, gets each metric's winning formula text.
std::map<std::string, double> evaluate_metrics(const EventSet& set, const std::map<std::string, double>& values,
                                               std::map<std::string, std::string>* used = nullptr);

// Every *.txt in `dir`; throws on a malformed file.
std::vector<EventSet> load_event_sets(const std::string& dir);

} // namespace roofline::measure
