// `roofline compare` and `roofline history` for people (text) and scripts (JSON).
#pragma once

#include "core/comparison.hpp"
#include "core/measured_elsewhere.hpp"
#include "core/spec_comparison.hpp"

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace roofline {

struct ComparisonInput {
    std::string label_a, label_b;  // "A: AMD EPYC (stored machine #3, 2026-11-20)"
    bool have_roofs = false;
    std::vector<RoofChange> roofs;
    // A measured model beside a spec sheet: the sheet's figures matched to measured roofs, in
    // place of `roofs` (they have no key in common). JSON "spec_comparison".
    std::optional<SpecComparison> spec;
    bool have_points = false;
    bool judged = false;  // the points were judged on a roofline (WHY can be told)
    std::vector<PointChange> points;
    std::string work_unit = "FLOP";
    // Two point sets measured by different command lines (core/command_series: another program
    // or other arguments): each as run; empty when they are the same or not known. Said above
    // the table and in the WHY of every pair that changed.
    std::string command_a, command_b;
    // A side's points measured on another host or CPU than the machine judging them: ("A" or "B",
    // what core/measured_elsewhere found). Said above the table; JSON "measured_elsewhere".
    std::vector<std::pair<std::string, MeasuredElsewhere>> elsewhere;
};

// How much of a comparison could be compared: pairs (a roof or point in both runs) and of them
// those judged (a roof unstable on neither side, a point with a rate on both: PointChange::judged).
// compare --fail-on-slower fails a comparison with none
// judged: an empty baseline (a points file without points) would otherwise pass any B.
struct ComparedCount {
    std::size_t pairs = 0, judged = 0;
};
ComparedCount compared_count(const ComparisonInput& input);
// The plain words for a comparison with nothing judged ("nothing compared: ..."); empty otherwise.
std::string nothing_compared_text(const ComparisonInput& input);

// json: {"a":…, "b":…, "roofs":[…], "points":[…]}; text: two tables and a summary line.
std::string render_comparison(const ComparisonInput& input, bool json);

struct HistoryInput {
    std::string what;  // "roofs of AMD EPYC on host vm" / "point 'triad 1 GiB'"
    std::vector<FigureHistory> figures;
};
std::string render_history(const HistoryInput& input, bool json);
// The plain words for a history whose latest run has no figure judged against a run before it
// ("nothing judged: ..."): history --fail-on-slower judges the latest run alone, so with none
// judged no slowdown was ruled out (exit 4, as compare's nothing_compared_text). Empty when
// at least one figure of the latest run was judged.
std::string nothing_judged_in_latest_run_text(const HistoryInput& input);

} // namespace roofline
