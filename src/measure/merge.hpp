// Timings (native run) + counts (engine) -> points, merged by region name. Pure.
#pragma once

#include "core/roofline.hpp"
#include "measure/engine.hpp"

#include <vector>

namespace roofline::measure {

inline constexpr const char* kProgramRegion = "(program)";

// One point per timed region (counts joined by name), then "(program)" with
// the parent's wall time. Instrument counts give bytes {"L1": loaded + stored};
// perf counts give their levels (e.g. "DRAM"). Regions with counts but no time
// (e.g. "<function f>") cannot be placed and are named in `skipped`.
std::vector<Point> merge_points(const MeasureResult& result, std::vector<std::string>* skipped = nullptr);

// Fills point fields from counts: flops, bytes, details. Shared by function listings.
void apply_counts(Point& point, const RegionCounts& counts);

} // namespace roofline::measure
