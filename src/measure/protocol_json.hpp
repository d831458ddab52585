// Reading what the marker library and the Valgrind tool write (PROTOCOL.md).
// Pure: text in, structs out; throws MeasureError naming the source on bad input.
#pragma once

#include "measure/engine.hpp"

#include <string>
#include <vector>

namespace roofline::measure {

struct MarkerReport {
    std::vector<RegionTiming> timings;
    std::vector<RegionCounts> counters;  // per region: raw counters (perf engine), may be empty
};

// schema "roofline.marker/1".
MarkerReport parse_marker_json(const std::string& text, const std::string& source);

struct VgtoolReport {
    std::vector<RegionCounts> regions;    // "(program)", regions, "<function NAME>"
    std::vector<RegionCounts> functions;  // exclusive counts per function
};

// schema "roofline.vgtool/1".
VgtoolReport parse_vgtool_json(const std::string& text, const std::string& source);

} // namespace roofline::measure
