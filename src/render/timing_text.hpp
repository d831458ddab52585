// How a measured time was taken, in words: "min of 5 runs, spread 3.2%" (the statistic, the
// runs behind it and their spread), for measure's tables and the provenance of its points.
#pragma once

#include "core/repeated_timing.hpp"
#include "core/roofline.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace roofline {

// "min of 5 runs, spread 3.2%"; "1 run" for a single one.
std::string timing_text(const TimingSummary& t);

// The provenance's sentence for a measure run: "min of 5 native runs after 1 warm-up run
// (left out: 0.512 s), spread 3.2% (the whole program); each region its own fastest run".
// `cold_flush_bytes` (measure --cold) adds "; cold caches: a 64 MiB buffer written between runs".
std::string timing_provenance_text(const TimingSummary& program, bool automatic, std::uint64_t cold_flush_bytes = 0);

// What of a point's time was not its code's (core/roofline.hpp TimeOutsideCode), in a sentence:
// "its time holds waits no roof describes: 79% of its CPU time in the kernel (...); ...".
std::string outside_code_text(const TimeOutsideCode& t);

// How one point's time was taken, for a tooltip: "min of 5 runs, spread 3.2%", "37 samples of
// CPU time"; empty when the point does not say.
std::string point_timing_text(const Point& p);

// How the times of the points on a chart were taken, for its notes: "times: the fastest of 5
// native runs (spread up to 44%); 3 points from sampled CPU time (12 to 300 samples, error
// about 1/sqrt(samples))". Empty when no point says (points from other tools, spec sheets).
std::string chart_timing_note(const std::vector<Point>& points);

} // namespace roofline
