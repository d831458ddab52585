// Which functions `roofline measure --functions` shows and places: those
// doing a share of the program's work worth looking at, never the marker
// library's own.
#pragma once

#include "measure/engine.hpp"
#include "measure/sampling_profiler.hpp"

#include <vector>

namespace roofline::measure {

// A function of libroofline_marker (by the file the tool found it in).
bool is_marker_internal(const RegionCounts& function);
// The file is libroofline_marker (any version, any directory).
bool is_marker_library(const std::string& file);

// Functions with at least `min_share` (a fraction, 0.01 = 1%) of all
// functions' FLOPs, or bytes, or sampled CPU time; marker internals left
// out; by FLOPs, then bytes, largest first.
std::vector<RegionCounts> significant_functions(const std::vector<RegionCounts>& functions,
                                                const SamplingResult* sampling, double min_share);

// The functions among `shown` whose FLOPs are at least `min_share` of all
// functions' FLOPs: those worth a point (a point with next to no FLOPs sits
// decades left of the others and says nothing).
std::vector<RegionCounts> functions_worth_a_point(const std::vector<RegionCounts>& shown,
                                                  const std::vector<RegionCounts>& all, double min_share);

} // namespace roofline::measure
