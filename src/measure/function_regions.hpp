// Points for functions measured as regions (--region-function NAME): which
// functions the Valgrind tool matched, and where each one's time comes from.
//
// Counts are inclusive of callees (and, in process scope, of every thread
// while a call is open), so the time must be too:
//   1. calls timed at entry and return (call_timer.hpp) when the function is
//      called at most `max_timed_calls` times;
//   2. else, its inclusive CPU time from call-stack samples
//      (sampling_profiler.hpp with call_stacks), when enough samples show it
//      and few stacks that could hide it were left not fully unwound;
//   3. else, for a leaf (its inclusive counts equal its own exclusive
//      counts), its sampled self CPU time;
//   4. else unknown: the counts and intensity stand, without a point.
#pragma once

#include "measure/call_timer.hpp"
#include "measure/engine.hpp"
#include "measure/sampling_profiler.hpp"

#include <optional>
#include <string>
#include <vector>

namespace roofline::measure {

// "<function dot>" -> "dot"; empty for other region names.
std::string function_of_region(const std::string& region);

// The matched functions of every "<function NAME>" region called at most
// max_timed_calls times: what the call timer should time.
std::vector<std::string> functions_to_time(const std::vector<RegionCounts>& counts, long long max_timed_calls);

// True when a function region's counts are its matched functions' own
// (exclusive) counts, within 1%: its callees do no measurable work.
bool is_leaf(const RegionCounts& region, const std::vector<RegionCounts>& exclusive);

enum class TimeSource { timed_calls, sampled_stacks, leaf_self_time, unknown };

struct FunctionRegionTime {
    TimeSource source = TimeSource::unknown;
    std::optional<double> seconds;
    long long timed_calls = 0;
    long long samples = 0;
    int threads = 1;   // threads whose work the time covers side by side (the point's thread count)
    std::string note;  // where the time came from, or why there is none
};

FunctionRegionTime function_region_time(const RegionCounts& region, const std::vector<RegionCounts>& exclusive,
                                        const CallTimingResult* timing, const SamplingResult* sampling,
                                        long long max_timed_calls);

// Up to `count` names from `candidates` that look like `wanted` (same short
// name but for a few edits, or containing it), closest first.
std::vector<std::string> closest_names(const std::string& wanted, const std::vector<std::string>& candidates,
                                       std::size_t count = 5);

} // namespace roofline::measure
