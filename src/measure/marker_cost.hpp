// The marker calls' own cost, measured in the same run and taken off each region's figures
// (PROTOCOL.md, "The calls' own cost"). roofline_begin and roofline_end cost tens of ns and,
// under the Valgrind tool, a few hundred bytes of loads and stores each pair: a region of a
// few ns would otherwise read as the calls.
#pragma once

#include "measure/engine.hpp"

#include <map>
#include <string>
#include <vector>

namespace roofline::measure {

// The regions the library calibrates under; the Valgrind tool reports them as regions, which
// are read here and never become points.
inline constexpr const char* kCalibrationRegion = "(roofline marker calls)";
inline constexpr const char* kCalibrationWhole = "(roofline marker calls, whole)";
bool is_calibration_region(const std::string& name);

// One figure's cost per begin/end pair, batch by batch: the part inside the region's own figure
// (what each call of a region adds to it) and the whole pair (what a region opened inside
// another adds to that one).
struct CostSeries {
    std::vector<double> region;
    std::vector<double> pair;
    double total = 0;  // counters: what the whole calibration counted (not the program's)
};

// The library's calibration in one process (its "calibration" object): batches of `pairs` pairs
// of an empty region, timed (ns) and counted (perf events) at the library's start, and of a
// region holding a known chain of work: the part of `time_ns.region` that no work in a region
// overlaps (`begin_ns`: begin's part after its clock read, which ends in a locked instruction).
// The rest is end's part before its clock read, which the region's own work runs beside.
struct MarkerCalibration {
    long long pairs = 0;
    double seconds = 0;  // the calibration's own span: not the program's time
    CostSeries time_ns;
    std::vector<double> begin_ns;  // empty: not measured (all of time_ns.region is taken as begin's)
    // What a region holding work adds to a region around it (a whole pair, less what the work
    // overlaps); empty: not measured (time_ns.pair is taken).
    std::vector<double> nested_ns;
    std::map<std::string, CostSeries> counters;
};

// A cost over the batches: their median and quartiles.
struct CallCost {
    double median = 0, low = 0, high = 0;
    int batches = 0;
    // Subtracted only when steady: the quartiles within a quarter of the median (a batch a
    // preemption or an interrupt slowed is an outlier beyond them, not the cost).
    bool steady() const;
};
CallCost summarize_cost(const std::vector<double>& per_batch);

// What subtracting said: for the first run, once (the repeats subtract silently).
struct CostMessages {
    std::vector<std::string> notes;
    std::vector<std::string> warnings;
};

// A region whose calls' own cost is at least this share of its figure is named in a warning
// (a demanding reader wants figures at least 20 times the cost they carry).
inline constexpr double kCostShareWarned = 1.0 / 20;

// Takes the calibrated cost off each region of one process's marker file: its seconds (in the
// proportion its threads' summed time loses: exact for one thread and for threads that overlap
// evenly) and its perf counters (`counters`, matched by name). Time: a call of mean length r
// (after a whole pair for each region opened inside it) is A + max(W, B), A the part of the
// calls no work overlaps, B end's part the region's work W runs beside: W = r - A when r > A + B;
// at or below A + B the work is hidden under the calls (anywhere from 0 to B) and the region is
// refused, saying why. Counts do not overlap: each outermost call takes A + B's counts, each
// inner region a whole pair's; a count left negative refuses the region. An unsteady calibration
// is not subtracted: regions it would weigh on are warned of. Without a calibration (a library
// before it) nothing is subtracted; `messages` (may be null) says so when there are regions.
void subtract_marker_time(std::vector<RegionTiming>& timings, std::vector<RegionCounts>& counters,
                          const MarkerCalibration* calibration, CostMessages* messages);

// The Valgrind tool's counts: the calibration's two regions taken out of `counts`, and the calls'
// own counts (bytes loaded and stored, instructions, FLOPs) per pair taken off each marker region
// (outermost and inner calls from `timings`, the native run's, when its calls agree with the
// tool's; else its calls, none inner) and, the calibration itself, off "(program)". A count left
// negative refuses the region. Without the two regions, nothing is subtracted (said when there
// are marker regions).
void subtract_marker_counts(std::vector<RegionCounts>& counts, const std::vector<RegionTiming>& timings,
                            CostMessages& messages);

} // namespace roofline::measure
