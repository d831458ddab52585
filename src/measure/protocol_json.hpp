// Reading what the marker library and the Valgrind tool write (PROTOCOL.md).
// Pure: text in, structs out; throws MeasureError naming the source on bad input.
#pragma once

#include "measure/engine.hpp"
#include "measure/marker_cost.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace roofline::measure {

// What a region with an empty name is called: it is kept, and seen.
inline constexpr const char* kUnnamedRegion = "(unnamed region)";

struct MarkerReport {
    std::vector<RegionTiming> timings;
    std::vector<RegionCounts> counters;  // per region: raw counters (perf engine), may be empty
    // The library's "errors" (ends without a begin, regions left open, events not opened), regions
    // still open at exit ("unclosed"), names that had to be repaired: each a sentence for a warning.
    std::vector<std::string> problems;    // What the calls cost in that process (its "calibration"); nullopt: the library wrote none.
    std::optional<MarkerCalibration> calibration;
};

// Bytes that are not UTF-8 (names are the program's bytes) become the text
// "\xNN"; valid UTF-8 is unchanged. `replaced` counts them.
std::string repair_utf8(const std::string& text, std::size_t* replaced = nullptr);

// schema "roofline.marker/1". Region names: an empty one becomes kUnnamedRegion,
// bytes that are not UTF-8 "\xNN" (the same in both reports, so they still merge).
MarkerReport parse_marker_json(const std::string& text, const std::string& source);

// The reports of the images one process ran in turn (it exec'd: each image's library wrote
// its own file), in that order, as one: a region in several has their calls, seconds and
// counters added (the images ran one after the other) and the most threads of any; a later
// image's problems name it.
// Each report's own calibration was taken off its regions first (subtract_marker_time): the
// merged report has none.
MarkerReport merge_marker_reports(std::vector<MarkerReport> reports);

struct VgtoolReport {
    std::vector<RegionCounts> regions;    // "(program)", regions, "<function NAME>"
    std::vector<RegionCounts> functions;  // exclusive counts per function
    std::vector<InstructionCounts> instructions;  // "per_instruction": the functions asked for
    // Regions with "functions" and "per_instruction" of their own (client-request regions, process
    // scope, instructions counted one by one): in the order of `regions`.
    std::vector<RegionBreakdown> region_breakdowns;
    std::vector<std::string> problems;    // names that had to be repaired
    long long child_processes = 0;        // forks of the measured process: their work is not counted
    // FLOPs made by x87 instructions (long double), counted as f64 among the others: the whole
    // run's, and the functions that made them (name, FLOPs), most first.
    double x87_flops = 0;
    std::vector<std::pair<std::string, double>> x87_functions;
    // Where the cache simulation ran the threads ("cache_model" "placement" and "threads"),
    // a sentence; empty without a cache simulation.
    std::string thread_placement;
};

// schema "roofline.vgtool/1".
VgtoolReport parse_vgtool_json(const std::string& text, const std::string& source);

} // namespace roofline::measure
