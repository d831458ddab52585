// The tables `roofline measure` prints: the points it measured (against a
// machine's roofline when there is one) and the per-function counts.
#pragma once

#include "core/roofline.hpp"

#include <optional>
#include <string>
#include <vector>

namespace roofline {

// One measured point, with its analysis when a machine model judged it.
struct MeasuredRow {
    Point point;
    std::optional<Analysis> analysis;
};

// region, seconds, threads, GFLOP, GFLOP/s, FLOP/byte at the innermost level
// with bytes; with `judged`, the binding roof and % of attainable.
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

} // namespace roofline
