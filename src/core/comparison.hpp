// Two runs side by side (`roofline compare`) and one figure across many runs
// (`roofline history`): which roofs and points changed beyond the spread their
// runs recorded, and for a point whether its roof moved or its efficiency did.
#pragma once

#include "core/machine_model.hpp"
#include "core/roofline.hpp"
#include "core/stored_entries.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace roofline {

// Which of a figure's recorded evidence its spread is (roof_figure takes the widest).
enum class SpreadSource {
    none,        // nothing recorded: kUnknownSpread stands in
    top_bursts,  // how far apart the roof's two best bursts landed
    cv,          // the CV of every sample of its bursts
    block,       // a model from before bursts: twice the CV of its one block, at most its range
    runs,        // a point: the range of its timed runs
};
const char* spread_source_name(SpreadSource source);  // "top bursts", "CV", ...

// A figure with its spread: how far apart repeats of its own measurement landed, relative to
// the figure (the whole width of that band, not half of it). A roof's is the widest of what its
// run recorded (roof_figure: the CV of its samples or the range of its top bursts), a point's the
// range of its timed runs (point_figure).
struct SpreadFigure {
    double value = 0;
    double spread = 0;         // relative width; 0 with spread_known false
    bool spread_known = false;
    // The least change that counts for this figure whatever its spread (kMinimumChange for a
    // point, kRoofMinimumChange for a roof).
    double floor = 0;
    // A point's counted work (FLOPs or ops) and seconds, beside its rate: 0 for a roof, and work 0
    // where nothing counted it. See work_change.
    double work = 0;
    double seconds = 0;
    // A roof's evidence as its run recorded it, said beside the band: bursts kept and set aside
    // (threads found sharing a core), samples and their CV; `unstable` where bench did not call
    // the figure stable (its best bursts disagreed, a team fell short of its threads x one, one
    // thread of its share of a team, or every burst shared cores): such a roof is not judged.
    SpreadSource source = SpreadSource::none;
    int bursts = 0, set_aside = 0, runs = 0;
    double cv = 0;
    bool unstable = false;
};

// Below this a change is never called one: timers, clocks and rounding.
inline constexpr double kMinimumChange = 0.02;
// A roof's floor: its spread comes from the bursts of one run, which share that run's pages,
// clock and choice of kernel; another run re-makes all three (a VM's DRAM roof moved 6% between
// two runs whose bursts agreed within 3.5%), so a roof's change below this is not called one.
inline constexpr double kRoofMinimumChange = 0.05;
// When a run recorded no spread (spec sheets, a single sample): changes below this pass as noise.
inline constexpr double kUnknownSpread = 0.05;

// The relative change that counts between `a` and `b`: the larger of their recorded spreads
// (kUnknownSpread for one that has none), at least either figure's floor and kMinimumChange.
double change_threshold(const SpreadFigure& a, const SpreadFigure& b);
// Whether a ratio (b / a) is beyond `threshold`, on a log scale: b / a > 1 + threshold or
// b / a < 1 / (1 + threshold), so a slowdown counts as soon as the speedup of the same factor
// would (x0.6 and x1.67 alike). The band that does not count: change_band.
bool beyond_threshold(double ratio, double threshold);
struct ChangeBand {
    double low = 1, high = 1;  // 1 / (1 + threshold), 1 + threshold
};
ChangeBand change_band(double threshold);
bool changed(const SpreadFigure& a, const SpreadFigure& b);

// Two runs of a point whose counted work differs beyond the band of change_threshold (the
// program does other work: a pass added or removed): their rates alone hide what the program
// takes (a second pass at the same rate doubled a dot product's time, 0.193 s to 0.399 s, while
// its GFLOP/s read 'same'), so such a pair is judged on its time. nullopt when either has no
// counted work or no time, or the work is alike.
struct WorkChange {
    double work_ratio = 0;   // b's work over a's
    double time_ratio = 0;   // b's seconds over a's
    bool time_changed = false;  // the time ratio beyond the same band
};
std::optional<WorkChange> work_change(const SpreadFigure& a, const SpreadFigure& b);

// A roof's figure with its spread and the roof's floor. The spread is the widest honest evidence
// its run recorded: the CV of its bursts' samples or how far apart its two best bursts landed
// (burst_spread in comparison.cpp), whichever is larger; a model from before bursts twice its CV,
// at most its range. Two back-to-back runs on a VM moved DRAM triad 1t 7% whose top bursts agreed
// within 0.4% while its samples' CV was 13%: the top two alone under-state what a rerun does.
SpreadFigure roof_figure(double value, const Stats& stats);

// Whether a pair can be judged: neither figure marked unstable by its run.
inline bool judgeable(const SpreadFigure& a, const SpreadFigure& b) { return !a.unstable && !b.unstable; }

// What set a pair's band (the larger spread, or the floor): for the CHANGE text and the JSON.
struct BandSource {
    char side = 0;  // 'A' or 'B' whose spread the band is; 0 where the floor or kUnknownSpread is
    SpreadSource source = SpreadSource::none;
    bool floor = false;  // the floor (5% a roof, 2% a point) was larger than either spread
};
BandSource band_source(const SpreadFigure& a, const SpreadFigure& b);
// A point's performance with its spread: the kernels' fastest and slowest sample
// (details seconds_fastest / seconds_slowest) where recorded.
SpreadFigure point_figure(const Point& p);

struct RoofChange {
    // "dp avx2 fma 1t", "DRAM load 2t": what is compared across machines; a memory roof one run
    // measured at working sets the other did not gets its working set in the key ("L2 copy 1t
    // at 512 KiB"): another roof, never compared with the first (see compare_roofs).
    std::string key;
    std::string unit;  // "GFLOP/s", "GB/s"
    std::optional<SpreadFigure> a, b;
    std::uint64_t working_set_a = 0, working_set_b = 0;  // a memory roof's, bytes over threads; 0: none known
    // Only in one run, because the other has this level, pattern and threads at other working sets.
    bool other_working_set = false;
    double ratio = 0;      // b / a when both exist
    double threshold = 0;  // the relative change that counts
    bool significant = false;  // never for a pair not judged (a roof unstable in either run)
    // Both runs have it and neither marked it unstable: its change is judged.
    bool judged() const { return a && b && judgeable(*a, *b); }
};

// Every compute roof (by precision, ISA, mix, threads) and memory roof (by level,
// pattern, threads) of either model, in a's order then b's new ones. A memory roof is the best
// of the working sets its run measured in the level, so two runs' roofs are alike when each
// run also measured the other's winning working set (its curve has that size: two default runs,
// whichever size won) or both are of one size; otherwise (bench --working-set, --dram-size) they
// are two roofs, each key with its working set.
std::vector<RoofChange> compare_roofs(const MachineModel& a, const MachineModel& b);

struct PointSide {
    SpreadFigure performance;       // G<unit>/s
    std::optional<Analysis> analysis;  // when a roofline judged it
    // The signal its region was cut off by (core/cut_off_point): its time is only the part that ran.
    std::optional<int> cut_off;
};

struct PointChange {
    std::string name;
    std::string name_b;  // B's name when it differs (matched by comparable_name), else empty
    // A name given to several points of a run (a region entered from two places, two sets
    // appended): the k-th of that name in A is compared with the k-th in B. `occurrence` is k
    // (1-based); `repeated`: the name has more than one point in A or in B.
    int occurrence = 1;
    bool repeated = false;
    std::optional<PointSide> a, b;
    double ratio = 0;  // performance b / a
    double threshold = 0;
    bool significant = false;
    // With both judged: attainable b / a at each point's own intensity (the roof
    // that moved, or the intensity that did) and efficiency b / a; their product is `ratio`.
    std::optional<double> roof_ratio, efficiency_ratio;
    std::string cause;  // "roof", "efficiency", "both", "work", "" (no change, or not judged)
    // The work differs beyond the band (work_change). With `by_time` (the same command line, set
    // by judge_work_changes_on_time) `significant` is the time's change, not the rate's, and B is
    // slower when its time_ratio is above 1.
    std::optional<WorkChange> work;
    bool by_time = false;
    bool slower() const { return significant && (by_time ? work && work->time_ratio > 1 : ratio < 1); }
    bool faster() const { return significant && !slower(); }
    // A side's region was cut off by a signal (PointSide::cut_off): its time and work are only the
    // part that ran, so neither its time nor its rate is a whole run's and the pair is not judged
    // (never significant, no work change; its ratio is still shown).
    bool cut_off() const { return a && b && (a->cut_off || b->cut_off); }
    // Both runs have it, both have a rate (work over time above 0) and neither was cut off: its
    // change is judged. A point without FLOPs (a copy's "Data movement only" point) has no rate to
    // judge, so it is never called the same.
    bool judged() const { return a && b && ratio > 0 && !cut_off(); }
};

// What a point's name means for matching runs: "<function daxpy.constprop.0>",
// "daxpy(int, double*)" and the marker region "daxpy" are all "daxpy" (compiler clone
// suffixes such as .constprop.N, .isra.N, .part.N, .cold, .lto_priv.N dropped).
std::string comparable_name(const std::string& name);

// Points matched by name (then, among those left, by comparable_name where it is unique
// on both sides), and points of one name by their order in each run (every pair is
// compared: none is dropped); each judged against its own run's roofline when given
// (a point that cannot be judged, e.g. without bytes at a level with a roof, is
// compared by performance alone).
std::vector<PointChange> compare_points(const std::vector<Point>& a, const Roofline* roofline_a,
                                        const std::vector<Point>& b, const Roofline* roofline_b, View view);

// Points whose work changed between A and B are judged on their time (PointChange::by_time):
// compare calls it for two sets `measure` made from one command line (the program did other
// work, so what it takes is its time), not for sets without one.
void judge_work_changes_on_time(std::vector<PointChange>& points);

// One figure over runs, oldest first; a run without the figure has no value.
struct HistoryRun {
    std::string run;  // "#3 2026-11-20T10:00:00Z"
    std::optional<SpreadFigure> figure;
    // A point's run whose region a signal cut off (core/cut_off_point): its figure is of the part
    // that ran, so the run is not judged (nor judged against), as an unstable one.
    std::optional<int> cut_off = std::nullopt;
};
struct FigureHistory {
    std::string key;
    std::string unit;
    // A point's series (history --point): the command line its runs ran (command_series.hpp);
    // empty for roofs and points named by what ran (reference kernels, models).
    std::string command;
    std::vector<HistoryRun> runs;
    // Indexes of runs whose value changed beyond the threshold from the run before
    // it that has the figure, with that ratio.
    struct Step {
        std::size_t run = 0;
        double ratio = 0;
        double threshold = 0;
        // A point's work changed at this step (work_change): the step is judged on its time, and
        // is a change whatever its rate did (a pass added at the same rate is one).
        std::optional<WorkChange> work;
        bool slower() const { return work ? work->time_changed && work->time_ratio > 1 : ratio < 1; }
    };
    std::vector<Step> changes;
    // Runs whose figure its run marked unstable (SpreadFigure::unstable), that has no rate (a
    // point without FLOPs) or that a signal cut off (HistoryRun::cut_off): not judged, and not the
    // run the next one is judged against.
    std::vector<std::size_t> unjudged;
    // Why the latest run's figure was or was not judged against a run before it (history
    // --fail-on-slower judges the latest run alone), after find_changes.
    enum class Latest { judged, absent, unstable, no_rate, cut_off, nothing_before };
    Latest latest() const;
};
// A step of a measured point's series (`command` set) whose work changed is one (Step::work),
// judged on its time. A run whose figure is unstable is left out of the steps (`unjudged`).
void find_changes(FigureHistory& history);

// The machine whose stored runs `history` follows: the host and CPU given, and what is not
// given taken from the latest stored model (of `machines`, oldest first) that matches what is:
// a host alone takes that host's latest CPU, a CPU alone its latest host, neither the latest
// model's both. nullopt when no stored model matches.
struct HistoryMachine {
    std::string host, cpu;
};
std::optional<HistoryMachine> history_machine(const std::vector<StoredMachine>& machines, const std::string& host,
                                              const std::string& cpu);

// Every roof of a series of models of one machine (keys as compare_roofs: a level, pattern and
// threads measured at working sets not alike are series of their own).
std::vector<FigureHistory> roof_histories(const std::vector<MachineModel>& models, const std::vector<std::string>& runs);

} // namespace roofline
