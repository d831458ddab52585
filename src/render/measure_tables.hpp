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

// A function's counts from the instrument engine and its sampled self CPU time.
struct FunctionRow {
    std::string name;
    std::optional<long long> calls;  // shown when set on every row
    double flops = 0;
    double bytes = 0;                // L1 bytes: what its loads and stores move
    std::optional<double> cpu_seconds;  // nullopt: no sampling
};

// A titled table of function rows.
std::string render_function_table(const std::string& title, const std::string& name_header,
                                  const std::vector<FunctionRow>& rows);

} // namespace roofline
