// Shared by the engines (not part of the interface).
#pragma once

#include "measure/engine.hpp"
#include "io/temp_dir.hpp"
#include "measure/perf_events.hpp"

#include <string>

namespace roofline::measure::detail {

using roofline::TempDir;

// The file's text; empty when it is missing (the child wrote nothing).
std::string read_file_or_empty(const std::string& path);

// The native run: timing from the marker library (when the program uses it) and
// the parent's wall time. `extra_env` e.g. ROOFLINE_PERF_EVENTS; `before_exec` attaches counters.
void native_run(const MeasureRequest& request, MeasureResult& result, const TempDir& tmp,
                std::vector<std::pair<std::string, std::string>> extra_env = {},
                const std::function<void(pid_t)>& before_exec = {});

void run_time_engine(const MeasureRequest& request, MeasureResult& result);
void run_instrument_engine(const MeasureRequest& request, MeasureResult& result);
void run_perf_engine(const MeasureRequest& request, MeasureResult& result, const PerfProbe& probe);

} // namespace roofline::measure::detail
