// The time engine, and the native run every engine's timing comes from.
#include "io/text_file.hpp"
#include "measure/child_process.hpp"
#include "measure/engines_internal.hpp"
#include "measure/protocol_json.hpp"

#include <fmt/core.h>


namespace roofline::measure::detail {

std::string read_file_or_empty(const std::string& path) { return read_file_if_exists(path).value_or(""); }

void native_run(const MeasureRequest& request, MeasureResult& result, const TempDir& tmp,
                std::vector<std::pair<std::string, std::string>> extra_env,
                const std::function<void(pid_t)>& before_exec) {
    const auto marker_out = tmp.file("marker.json");
    auto env = request.env;
    env.emplace_back("ROOFLINE_MARKER_OUT", marker_out);
    for (auto& kv : extra_env) env.push_back(std::move(kv));
    const auto run = run_child(request.argv, env, before_exec);
    result.status = run.status;
    result.wall_seconds = run.wall_seconds;
    result.notes.push_back(fmt::format("native run (timing): {:.3f} s, {}", run.wall_seconds, run.status.describe()));
    const auto text = read_file_or_empty(marker_out);
    if (text.empty()) {
        if (!run.status.exited)
            result.warnings.push_back("the command did not finish: region timings were not written, only the "
                                      "whole-program time up to its end is known");
        else
            result.notes.push_back("no marker regions (the program does not use the roofline marker library): "
                                   "whole program only");
        return;
    }
    MarkerReport report;
    try {
        report = parse_marker_json(text, "marker library output");
    } catch (const MeasureError& e) {
        // A damaged file costs the regions, not the run: the whole program's time is still known.
        result.warnings.push_back(fmt::format("the marker library's regions cannot be read, so only the whole "
                                              "program is measured: {}",
                                              e.what()));
        return;
    }
    for (auto& p : report.problems) result.warnings.push_back(std::move(p));
    result.timings = std::move(report.timings);
    // Counters the marker library read at region boundaries (perf engine).
    for (auto& c : report.counters) result.counts.push_back(std::move(c));
}

void run_time_engine(const MeasureRequest& request, MeasureResult& result) {
    TempDir tmp("roofline-measure");
    native_run(request, result, tmp);
}

} // namespace roofline::measure::detail
