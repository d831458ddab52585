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

// Functions with at least `min_share` (a fraction, 0.01 = 1%) of all
// functions' FLOPs, or bytes, or sampled CPU time; marker internals left
// out; by FLOPs, then bytes, largest first.
std::vector<RegionCounts> significant_functions(const std::vector<RegionCounts>& functions,
                                                const SamplingResult* sampling, double min_share);

// Whether a function's FLOPs are a large enough share to make it a point:
// a point with next to no FLOPs sits decades left of the others and says nothing.
bool worth_a_point(const RegionCounts& function, const std::vector<RegionCounts>& functions, double min_share);

} // namespace roofline::measure
