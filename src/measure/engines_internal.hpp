// Shared by the engines (not part of the interface).
#pragma once

#include "measure/engine.hpp"
#include "io/temp_dir.hpp"
#include "measure/cold_caches.hpp"
#include "measure/perf_events.hpp"

#include <cstdint>
#include <string>

namespace roofline::measure::detail {

using roofline::TempDir;

// The file's text; empty when it is missing (the child wrote nothing).
std::string read_file_or_empty(const std::string& path);

// The runs' temporary directory, refused (MeasureError) before any run when its file system
// has less than kTempRoomBytes free: the marker library and the Valgrind tool write their
// results there and say nothing when the disk is full, so the regions or the counts would be
// lost, or blamed on the program.
inline constexpr std::uint64_t kTempRoomBytes = std::uint64_t{1} << 20;
void require_temp_room(const TempDir& tmp);

// After a run: " (the file system of the temporary directory ... has N bytes free ...)" when
// it is nearly full (what a child wrote there was likely cut off), else "". Appended to the
// message of a results file that is missing, empty or damaged.
std::string temp_full_hint(const TempDir& tmp);

// The marker library's files of a run: `marker_out`, then one per image the program exec'd
// ("<marker_out>.exec1", ...), in the order they ran; empty when it wrote none.
std::vector<std::string> read_marker_texts(const std::string& marker_out);

// The native run: timing from the marker library (when the program uses it) and
// the parent's wall time. `extra_env` e.g. ROOFLINE_PERF_EVENTS; `before_exec` attaches counters.
// Repeated as request.repeat asks (repeat_native_run): the extra runs are plain ones, without
// `extra_env` and `before_exec`. With request.repeat.cold_flush_bytes (--cold) the caches are
// emptied before every run (ColdCaches).
void native_run(const MeasureRequest& request, MeasureResult& result, const TempDir& tmp,
                std::vector<std::pair<std::string, std::string>> extra_env = {},
                const std::function<void(pid_t)>& before_exec = {});

// The first native run alone: its status, its time and the marker library's regions (and, under
// the perf engine, the counters the library read at their boundaries). `cold` flushes the
// caches before it (and, passed on to repeat_native_run, before each later run).
void first_native_run(const MeasureRequest& request, MeasureResult& result, const TempDir& tmp, ColdCaches& cold,
                      std::vector<std::pair<std::string, std::string>> extra_env,
                      const std::function<void(pid_t)>& before_exec);

// The native runs after the first (native_repeats.cpp): planned from the first run's time,
// stopped by a signal (the runs done are kept) or by a run that ends unlike the first (left
// out); sets result.repeat_plan, native_runs, wall_timing, region_timing, and wall_seconds and
// the timings' seconds to the fastest timed run's.
void repeat_native_run(const MeasureRequest& request, MeasureResult& result, const TempDir& tmp, ColdCaches& cold);

// Whether the command is a 32-bit (ELF32) program, which the Valgrind tool cannot run.
bool is_32_bit_program(const MeasureRequest& request);

void run_time_engine(const MeasureRequest& request, MeasureResult& result);
void run_instrument_engine(const MeasureRequest& request, MeasureResult& result);
void run_perf_engine(const MeasureRequest& request, MeasureResult& result, const PerfProbe& probe);

} // namespace roofline::measure::detail
