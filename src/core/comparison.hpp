// Two runs side by side (`roofline compare`) and one figure across many runs
// (`roofline history`): which roofs and points changed beyond the spread their
// runs recorded, and for a point whether its roof moved or its efficiency did.
#pragma once

#include "core/machine_model.hpp"
#include "core/roofline.hpp"

#include <optional>
#include <string>
#include <vector>

namespace roofline {

// A figure with the relative spread of the samples behind it.
struct SpreadFigure {
    double value = 0;
    double spread = 0;         // (max - min) / value of its samples; 0 with spread_known false
    bool spread_known = false;
};

// Below this a change is never called one: timers, clocks and rounding.
inline constexpr double kMinimumChange = 0.02;
// When a run recorded no spread (spec sheets, a single sample): changes below this pass as noise.
inline constexpr double kUnknownSpread = 0.05;

// The relative change |b/a - 1| that counts as a change between `a` and `b`: the
// larger of their recorded spreads (kUnknownSpread for one that has none), at least
// kMinimumChange.
double change_threshold(const SpreadFigure& a, const SpreadFigure& b);
bool changed(const SpreadFigure& a, const SpreadFigure& b);

// A roof's figure with its spread ((max - min) / figure of its accepted samples).
SpreadFigure roof_figure(double value, const Stats& stats);
// A point's performance with its spread: the kernels' fastest and slowest sample
// (details seconds_fastest / seconds_slowest) where recorded.
SpreadFigure point_figure(const Point& p);

struct RoofChange {
    std::string key;   // "dp avx2 fma 1t", "DRAM load 2t": what is compared across machines
    std::string unit;  // "GFLOP/s", "GB/s"
    std::optional<SpreadFigure> a, b;
    double ratio = 0;      // b / a when both exist
    double threshold = 0;  // the relative change that counts
    bool significant = false;
};

// Every compute roof (by precision, ISA, mix, threads) and memory roof (by level,
// pattern, threads) of either model, in a's order then b's new ones.
std::vector<RoofChange> compare_roofs(const MachineModel& a, const MachineModel& b);

struct PointSide {
    SpreadFigure performance;       // G<unit>/s
    std::optional<Analysis> analysis;  // when a roofline judged it
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
    std::string cause;  // "roof", "efficiency", "both", "" (no change, or not judged)
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

// One figure over runs, oldest first; a run without the figure has no value.
struct HistoryRun {
    std::string run;  // "#3 2026-11-20T10:00:00Z"
    std::optional<SpreadFigure> figure;
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
    };
    std::vector<Step> changes;
};
void find_changes(FigureHistory& history);

// Every roof of a series of models of one machine (keys as compare_roofs).
std::vector<FigureHistory> roof_histories(const std::vector<MachineModel>& models, const std::vector<std::string>& runs);

} // namespace roofline
