// Reads Nsight Compute's CSV (`ncu --csv`, its own output or `--log-file`, or `ncu --import
// report.ncu-rep --csv`): the details page (one row per metric of each launch: "ID", "Kernel
// Name", "Metric Name", "Metric Unit", "Metric Value") or the raw page (`--page raw`: one row
// per launch, a column per metric and a row of units under the header). Lines before the
// header (the program's own output, ==PROF== notes) and ncu's ==WARNING== lines are skipped.
#pragma once

#include "core/gpu_kernel_points.hpp"

#include <string>
#include <string_view>
#include <vector>

namespace roofline {

// Values in base units: bytes, nanoseconds (usecond, msecond and second are converted),
// plain counts; thousands separators are removed; "n/a" is a metric the device lacks.
// Throws std::runtime_error ("line N: ...") for a file that is not ncu CSV, a row whose
// columns do not match the header, a value that is not a number, or bytes given with a
// prefix (Kbyte ...: ncu's prefixes are ambiguous between 1000 and 1024; ask for
// --print-units base).
std::vector<GpuKernelMetric> parse_ncu_csv(std::string_view text);

// The metric names in what `ncu --query-metrics` printed (the first word of each row that
// names a metric: lowercase words joined by "__" and "_"), in order, without duplicates.
std::vector<std::string> parse_ncu_metric_names(const std::string& text);

} // namespace roofline
