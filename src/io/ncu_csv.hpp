// Reads Nsight Compute's CSV (`ncu --csv`, its own output or `--log-file`, or `ncu --import
// report.ncu-rep --csv`): the details page (one row per metric of each launch: "ID", "Kernel
// Name", "Metric Name", "Metric Unit", "Metric Value") or the raw page (`--page raw`: one row
// per launch, a column per metric and a row of units under the header). Lines before the
// header (the program's own output, ==PROF== notes) and ncu's ==PROF==/==WARNING==/==ERROR==
// lines between records are skipped (==ERROR== lines are passed on as warnings). Records are
// RFC 4180: a quoted field may hold commas, "" for a quote, and line breaks (a kernel name
// with a newline is one field of one record).
//
// Nothing in the file is trusted. A metric the points read (ncu_metric_unit_kind) must be in
// a unit of its kind, and its value a number as ncu writes it and possible for a GPU; each
// refusal names the line, the metric and what is wrong.
#pragma once

#include "core/gpu_kernel_points.hpp"

#include <string>
#include <string_view>
#include <vector>

namespace roofline {

// What a metric the points read counts, which fixes the units it may be given in:
//   time   gpu__time_duration.sum: ns/nsecond, us/usecond, ms/msecond, s/second
//   bytes  dram__bytes*.sum, lts__t_bytes.sum, l1tex__t_bytes.sum: byte (B); a prefixed unit
//          (Kbyte, MB, ...) is refused: ncu's prefixes may mean 1000 or 1024
//   count  instructions and operations (sm__sass_thread_inst_executed_op_*.sum,
//          sm__inst_executed_pipe_tensor*.sum, sm__ops_path_tensor*.sum): inst, or no unit
//   none   any other metric (rates, averages, metrics the points do not read): its unit is
//          not checked, and a value that is not a number leaves it out
enum class NcuUnitKind { none, time, bytes, count };
NcuUnitKind ncu_metric_unit_kind(const std::string& metric);

// The shortest and longest kernel duration believed (nanoseconds). The shortest launch ncu
// times lasts about a microsecond (an empty kernel's gpu__time_duration on Volta to Hopper:
// 1 to 3 us, the front end's dispatch and the end-of-kernel flush); 100 ns leaves a tenfold
// margin for faster GPUs and refuses what no launch lasts: 0, half a nanosecond, a duration
// in seconds or microseconds labelled nanoseconds. ncu replays a kernel once per pass (the
// roofline metrics take several), so a kernel of over a week would take weeks to profile.
inline constexpr double kNcuMinKernelNs = 100;
inline constexpr double kNcuMaxKernelNs = 7 * 24 * 3600e9;

// The most any GPU does per nanosecond, with a wide margin over today's largest (an H200 has
// 132 SMs at 1.98 GHz): bytes at any level 1e6 (1 PB/s; its L1 moves 132 x 128 B x 1.98 GHz,
// about 33 TB/s), thread instructions 1e7 (1e16/s; 132 x 128 lanes x 1.98 GHz = 3.3e13/s),
// tensor-path operations 1e9 (1e18/s; its dense FP8 is 2e15/s, a B200's sparse FP4 2e16/s).
// A value above rate x its launch's duration is refused; above rate x kNcuMaxKernelNs,
// refused even without a duration.
inline constexpr double kNcuMaxBytesPerNs = 1e6;
inline constexpr double kNcuMaxInstructionsPerNs = 1e7;
inline constexpr double kNcuMaxOperationsPerNs = 1e9;

struct NcuCsv {
    std::vector<GpuKernelMetric> metrics;
    // "line N: ..." for what the reader read and did not use that is likely a mistake: a
    // metric not read whose name is close to one the points read and the file lacks
    // (dram__bytez.sum: did you mean dram__bytes.sum?), and ncu's own ==ERROR== lines. Metric
    // names and kernel names are the file's text: render them as outside text.
    std::vector<std::string> warnings;
};

// Values in base units: bytes, nanoseconds (usecond, msecond and second are converted),
// plain counts; thousands separators are removed; "n/a" (or an empty value) is a metric the
// device lacks (available false). Numbers as ncu writes them: digits, optionally grouped in
// threes by ',', an optional fraction ".digits" and exponent "e[+-]digits"; a '+', hex,
// "inf", "nan", a fraction without digits before its point and a misplaced ',' are refused.
// Throws std::runtime_error ("line N: ...") for a file that is not ncu CSV, a record whose
// columns do not match the header or whose quoted field is not closed, a launch ID or device
// that is not a number, a launch named with two kernels, and for a metric the
// points read (ncu_metric_unit_kind): a unit of another kind, a value that is not a number,
// negative, or not possible (a duration outside kNcuMinKernelNs..kNcuMaxKernelNs, bytes or
// counts above the rates above).
NcuCsv read_ncu_csv(std::string_view text);

// read_ncu_csv(text).metrics, the warnings dropped (for callers that report none: tests).
std::vector<GpuKernelMetric> parse_ncu_csv(std::string_view text);

// The metric names in what `ncu --query-metrics` printed (the first word of each row that
// names a metric: lowercase words joined by "__" and "_"), in order, without duplicates.
std::vector<std::string> parse_ncu_metric_names(const std::string& text);

} // namespace roofline
