// `roofline monitor`'s arithmetic: from the cumulative region totals a running
// program publishes (marker library snapshots, PROTOCOL.md) and the work one call
// of each region does (an earlier instrument run) to one point per interval.
// Pure: the command reads the files and the clock.
#pragma once

#include "core/roofline.hpp"

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace roofline {

// One region's totals since the process started, over all its threads.
struct RegionTotals {
    std::string name;
    long long calls = 0;
    double seconds = 0;   // wall time of closed calls (while at least one thread had the region open)
    int threads = 0;      // threads that entered it
    bool nested = false;  // entered inside another region: its work is in that one's too
};

// One snapshot of one process (schema "roofline.monitor/1").
struct ProcessSnapshot {
    long long pid = 0;
    std::string job;
    std::uint64_t start_ns = 0;  // CLOCK_MONOTONIC when the library started
    std::uint64_t time_ns = 0;   // CLOCK_MONOTONIC when the totals were taken
    bool finished = false;       // the program has finished: no snapshot follows
    std::vector<RegionTotals> regions;
};

// The work of one call of a region.
struct PerCallWork {
    double work = 0;
    bool work_counted = true;
    std::string work_unit = "FLOP";
    std::map<std::string, double> bytes;    // per level
    std::map<std::string, double> details;  // flops_*, bytes_*, cache_* per call
};
using PerCallCounts = std::map<std::string, PerCallWork>;

// Per region of a points file (`measure --engine instrument`): its counts over its
// `details.calls`. Points without calls ("(program)") are left out. Throws
// std::invalid_argument when no point has calls.
PerCallCounts per_call_counts(const std::vector<Point>& points);

// What one process did between two of its snapshots.
struct ProcessDelta {
    long long pid = 0;
    double seconds = 0;                          // between the snapshots' times
    std::map<std::string, long long> calls;      // per region
    std::map<std::string, double> busy_seconds;  // per region: inclusive time of the calls closed
    std::map<std::string, int> threads;          // per region, at the later snapshot
    std::set<std::string> nested;                // regions entered inside another
};

// `previous` null: the process is new, its totals count from its start (start_ns).
// Totals that went down (a region reset by the program) count from zero.
// Throws std::invalid_argument when `current` is not later than `previous` or is another process.
ProcessDelta snapshot_delta(const ProcessSnapshot* previous, const ProcessSnapshot& current);

struct IntervalSample {
    Point point;
    double calls = 0;                          // calls of the regions counted
    std::vector<std::string> regions_counted;  // with calls in the interval
    std::vector<std::string> regions_missing;  // with calls but not in the counts: their work is not in the point
};

// One point for the interval: work and bytes = sum over processes and counted regions of
// calls x per call; seconds = the longest of the processes' intervals (never a rate above what
// any process did); threads = per process the most threads of a counted region, summed.
// Counted regions: `only` when not empty, else those never nested in another (a nested one's
// work is already in its parent's counts). Point name and series are left to the caller.
IntervalSample interval_sample(const std::vector<ProcessDelta>& deltas, const PerCallCounts& counts,
                               const std::set<std::string>& only = {});

} // namespace roofline
