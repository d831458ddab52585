// What a machine is made of, as the OS and CPU describe it, and its measured
// clock: plain structs that topo/ fills and render/ prints (`roofline topology`).
#pragma once

#include "core/machine_model.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace roofline {

struct CacheDetail {
    CacheLevel cache;                 // level, size, line, associativity, sharing
    std::string type;                 // "data", "unified", "instruction"
    std::vector<std::vector<int>> core_groups;  // per instance: logical core indices sharing it
};

struct CoreDetail {
    int index = 0;                  // logical core index 0..cores-1 (hwloc order)
    int package = 0;
    int numa_node = 0;              // logical NUMA node index
    std::vector<int> pu_os_indices; // hardware threads of this core (OS numbering)
};

struct NumaDetail {
    int index = 0;
    int os_index = 0;
    std::uint64_t memory_bytes = 0;
    std::vector<int> cores;
};

struct ClockMeasurement {
    double ghz = 0;        // 90th percentile over samples (interference only slows the chain)
    double min_ghz = 0, max_ghz = 0;
    int samples = 0;
};

// Everything `roofline topology` reports, gathered before any of it is printed.
struct TopologyReport {
    CpuDescription cpu;
    int family = 0, model = 0, stepping = 0;   // CPUID; 0 when unknown
    std::vector<CacheDetail> caches;           // incl. L1i, as reported
    // The data caches as checked (core/cache_check.hpp): each with its reported,
    // measured and used size, and why a reported size was not believed.
    std::vector<CacheLevel> checked_caches;
    BandwidthCurve cache_probe;                // the load curve of the check (no points: not probed)
    std::vector<CoreDetail> cores;
    std::vector<NumaDetail> numa_nodes;
    ClockMeasurement clock;
    std::optional<int> clock_core;             // the core the clock was measured on; nullopt: unbound
    double clock_seconds = 0;                  // total sampling time
    std::string clock_method;                  // how it was measured, in words
    Environment environment;
};

} // namespace roofline
