// Which functions `roofline measure --functions` shows and places: those
// doing a share of the program's work worth looking at, never the marker
// library's own.
#pragma once

#include "measure/engine.hpp"
#include "measure/sampling_profiler.hpp"

#include <cstddef>
#include <functional>
#include <optional>
#include <vector>

namespace roofline::measure {

// A function of libroofline_marker (by the file the tool found it in).
bool is_marker_internal(const RegionCounts& function);
// The file is libroofline_marker (any version, any directory).
bool is_marker_library(const std::string& file);

// Functions with at least `min_share` (a fraction, 0.01 = 1%) of all
// functions' FLOPs, or bytes, or sampled CPU time; marker internals left
// out; by FLOPs, then bytes, largest first.
std::vector<RegionCounts> significant_functions(const std::vector<RegionCounts>& functions,
                                                const SamplingResult* sampling, double min_share);

// The functions among `shown` whose FLOPs are at least `min_share` of all
// functions' FLOPs: those worth a point (a point with next to no FLOPs sits
// decades left of the others and says nothing).
std::vector<RegionCounts> functions_worth_a_point(const std::vector<RegionCounts>& shown,
                                                  const std::vector<RegionCounts>& all, double min_share);

// What --functions' table holds of the program and what it leaves out, so a table of work
// spread thin (600 instantiations of 0.17% each, none over --min-share) says so. Shares are of
// all functions' FLOPs and sampled CPU time, the totals --min-share is judged by.
struct FunctionListShare {
    std::size_t listed = 0;
    std::size_t left_out = 0;              // the others (the marker library's own not counted)
    double all_flops = 0;
    double listed_flops = 0;
    double left_out_flops = 0;
    double largest_left_out_flops = 0;     // one function's
    std::optional<double> all_seconds;     // with sampling
    std::optional<double> listed_seconds;
    double lower_min_share_percent = 0;    // --min-share's value (1-2-5 steps) listing more; 0: none does
    std::size_t lower_lists = 0;           // how many more it lists
    // With sampling: the left-out rows' own sampled time (not the rest of the program's: a program that
    // stopped before its loops ran has none in them).
    std::optional<double> left_out_seconds;
};

// Tallies a list's rows as the --min-share cut keeps or leaves them, into a FunctionListShare:
// one for --loops whether its loops were timed in the counted build or in another.
class ListedShareTally {
public:
    explicit ListedShareTally(double all_flops) { share_.all_flops = all_flops; }
    // A row: its own FLOPs (self: none counted twice), samples, and the share the cut judged it by.
    void add(bool listed, double self_flops, double self_samples, double share);
    // With the sampled run's samples (all of them) and a sample's seconds, when it was sampled.
    FunctionListShare finish(std::optional<double> all_samples, double seconds_per_sample) const;

private:
    FunctionListShare share_;
    double listed_samples_ = 0, left_out_samples_ = 0, largest_left_out_share_ = 0;
    std::vector<double> left_out_shares_;
};

// The roundest --min-share (a percentage: 5, 2 or 1 times a power of ten, within two decades) at
// or under `largest_share` (a fraction: the largest share a left-out row holds) under which
// `lists_more(percent)` rows more than now are listed; {0, 0} when none is.
struct LowerMinShare {
    double percent = 0;
    std::size_t lists = 0;
};
LowerMinShare lower_min_share(double largest_share, const std::function<std::size_t(double percent)>& lists_more);

// `shown`: significant_functions(functions, sampling, min_share).
FunctionListShare function_list_share(const std::vector<RegionCounts>& functions,
                                      const std::vector<RegionCounts>& shown, const SamplingResult* sampling,
                                      double min_share);

} // namespace roofline::measure
