// How a measured time was taken, in words: "min of 5 runs, spread 3.2%" (the statistic, the
// runs behind it and their spread), for measure's tables and the provenance of its points.
#pragma once

#include "core/repeated_timing.hpp"
#include "core/roofline.hpp"

#include <cstdint>
#include <string>

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

} // namespace roofline
