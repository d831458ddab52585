// Timings (native run) + counts (engine) -> points, merged by region name. Pure.
#pragma once

#include "core/roofline.hpp"
#include "measure/engine.hpp"

#include <optional>
#include <string>
#include <vector>

namespace roofline::measure {

inline constexpr const char* kProgramRegion = "(program)";

// One point per timed region (counts joined by name), then "(program)" with
// the parent's wall time. Instrument counts give bytes {"L1": loaded + stored};
// perf counts give their levels (e.g. "DRAM"). Regions with counts but no time
// (e.g. "<function f>") cannot be placed and are named in `skipped`; regions
// refused for the marker calls' own cost get none (refused_regions).
std::vector<Point> merge_points(const MeasureResult& result, std::vector<std::string>* skipped = nullptr);

// The regions merge_points gives no point because the marker calls' own cost left nothing of
// their time or a count (RegionTiming::refused, RegionCounts::refused), each a sentence naming
// the region and why.
std::vector<std::string> refused_regions(const MeasureResult& result);

// Region times from an earlier run's points (--times): each point's seconds,
// calls and threads; "(program)" gives the whole program's time. From a job's
// file (points with details "mpi_rank") only `rank`'s points, their names
// without " [rank R]"; sums over ranks are never used. Throws
// std::invalid_argument when nothing is left to take times from.
EarlierTimes earlier_times(const std::vector<Point>& points, std::optional<int> rank, const std::string& source);

// Fills point fields from counts: flops, bytes, details. Shared by function listings.
void apply_counts(Point& point, const RegionCounts& counts);
// The cache simulation's last level (capacity, level, instances, cores sharing one) and what the
// code around the point touched, from `counts` into the point's details (core/llc_occupancy's
// keys); nothing without a simulated last level. apply_counts calls it; loops' points, whose
// counts are sums of instructions', take it from their program's or region's counts.
void apply_llc_context(Point& point, const RegionCounts& counts);
// The program's point (its counts applied): the function holding kMainWorkShare or more of its
// FLOPs as Point::main_function, with that function's FLOPs, calls and instructions in details,
// and the file holding that share as Point::object (unless set), so report can advise on the code
// that does the work (a recursive fib's calls, FFTW's library) without measure --functions; and
// the FLOPs in a math library (core/math_library_flops), which measure and report say.
void attribute_program_work(Point& point, const std::vector<RegionCounts>& functions);

} // namespace roofline::measure
