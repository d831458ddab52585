// Shared by the engines (not part of the interface).
#pragma once

#include "measure/engine.hpp"
#include "measure/perf_events.hpp"

#include <string>

namespace roofline::measure::detail {

// A private temporary directory, removed with the object.
class TempDir {
public:
    TempDir();
    ~TempDir();
    TempDir(const TempDir&) = delete;
    TempDir& operator=(const TempDir&) = delete;
    std::string file(const std::string& name) const { return path_ + "/" + name; }

private:
    std::string path_;
};

std::string read_file_if_exists(const std::string& path);

// The native run: timing from the marker library (when the program uses it) and
// the parent's wall time. `extra_env` e.g. ROOFLINE_PERF_EVENTS; `before_exec` attaches counters.
void native_run(const MeasureRequest& request, MeasureResult& result, const TempDir& tmp,
                std::vector<std::pair<std::string, std::string>> extra_env = {},
                const std::function<void(pid_t)>& before_exec = {});

// Where the Valgrind tool lives; empty with `why` set when not found.
std::string find_vgtool_dir(const std::string& self_exe, std::string& why);

void run_time_engine(const MeasureRequest& request, MeasureResult& result);
void run_instrument_engine(const MeasureRequest& request, MeasureResult& result);
void run_perf_engine(const MeasureRequest& request, MeasureResult& result, const PerfProbe& probe);

} // namespace roofline::measure::detail
