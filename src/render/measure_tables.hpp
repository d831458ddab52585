// The tables `roofline measure` prints: the points it measured (against a
// machine's roofline when there is one) and the per-function counts.
#pragma once

#include "core/data_movement.hpp"
#include "core/roofline.hpp"

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace roofline {

// One measured point, with its analysis when a machine model judged it.
struct MeasuredRow {
    Point point;
    std::optional<Analysis> analysis;
    std::optional<DataMovement> movement = std::nullopt;  // no FLOPs, bytes moved (core/data_movement)
};

// region, seconds, threads, GFLOP, GFLOP/s, FLOP/byte at the innermost level
// with bytes; with `judged`, the binding roof and % of attainable (for a row with no FLOPs
// that moved data: the roof of the level nearest its roof and the % of its bandwidth, said in a
// line under the table).
std::string render_measured_points(const std::vector<MeasuredRow>& rows, bool judged);

// A function's counts from the instrument engine and its time.
struct FunctionRow {
    std::string name;
    std::optional<long long> calls;  // shown when set on every row
    double flops = 0;
    double bytes = 0;                // L1 bytes: what its loads and stores move
    std::optional<double> seconds;   // nullopt: not measured ("-")
    std::string time_note;           // where the time came from, or why there is none
    std::optional<double> dram_bytes;  // cache simulation: what reached DRAM (a column when any row has it)
};

// A titled table of function rows; `time_header` names the time column
// ("CPU s", "wall s"). Names are never cut into duplicates.
std::string render_function_table(const std::string& title, const std::string& name_header,
                                  const std::string& time_header, const std::vector<FunctionRow>& rows);

// What a table of the rows over --min-share holds of the program and leaves out: work spread
// thin (600 template instantiations of 0.17% each) otherwise leaves a table of nothing useful
// and no word of what is missing.
struct ListedShare {
    std::string noun = "function";
    std::size_t listed = 0;
    std::size_t left_out = 0;
    double all_flops = 0;
    double listed_flops = 0;
    double left_out_flops = 0;
    double largest_left_out_flops = 0;  // one row's
    std::optional<double> all_seconds;  // sampled CPU time, where there is any
    std::optional<double> listed_seconds;
    double lower_min_share_percent = 0;  // a --min-share that lists more; 0: none
    std::size_t lower_lists = 0;         // how many more it lists
    bool own_code = false;               // loops: the FLOPs of their own code (self), no callee's
    std::optional<double> left_out_seconds;  // the left-out rows' own sampled time; none: the rest of all_seconds
};

// One line ("the 7 functions listed hold 2.33% of the FLOPs and 41.2% of the sampled CPU time;
// 676 more hold 97.7% of the FLOPs, the largest of them 0.333%: --min-share 0.2 lists 293 more"),
// empty when nothing was left out.
std::string render_listed_share(const ListedShare& share);

} // namespace roofline
