// The native run repeated for its time (measure --repeat, --warmup): runs after the first,
// each read like it (the whole program's wall time, the marker library's regions), summed
// up per region into the fastest run, the median, the slowest and the warm-up.
#include "measure/native_repeats.hpp"

#include "measure/child_process.hpp"
#include "measure/engines_internal.hpp"
#include "measure/output_tee.hpp"
#include "measure/protocol_json.hpp"
#include "topo/cpu_activity.hpp"

#include <fmt/core.h>

#include <map>

#include <sys/stat.h>
#include <unistd.h>

namespace roofline::measure {

bool stdin_is_stream() {
    struct stat st {};
    if (::isatty(STDIN_FILENO) || ::fstat(STDIN_FILENO, &st) != 0) return false;
    return S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode);
}

namespace detail {
namespace {

// A run's regions by name and occurrence ("loop" entered from two places: its first and second
// entry in the library's list), so that runs are matched region by region.
using RegionKey = std::pair<std::string, int>;
std::map<RegionKey, const RegionTiming*> by_key(const std::vector<RegionTiming>& timings) {
    std::map<RegionKey, const RegionTiming*> out;
    std::map<std::string, int> seen;
    for (const auto& t : timings) out[{t.name, seen[t.name]++}] = &t;
    return out;
}

// The regions the marker library wrote in a later run, each process image's calls' own time
// taken off as in the first run (silently: the first run said it); nullopt when they cannot be
// read (that run then gives the whole program's time only). `calibration_seconds`: the
// libraries' calibrations, no part of the program's time.
std::optional<std::vector<RegionTiming>> later_run_regions(const std::string& marker_out, double& calibration_seconds) {
    calibration_seconds = 0;
    const auto texts = read_marker_texts(marker_out);
    if (texts.empty()) return std::vector<RegionTiming>{};
    std::vector<MarkerReport> reports;
    try {
        for (const auto& text : texts) reports.push_back(parse_marker_json(text, "marker library output"));
    } catch (const MeasureError&) {
        return std::nullopt;
    }
    for (auto& r : reports) {
        subtract_marker_time(r.timings, r.counters, r.calibration ? &*r.calibration : nullptr, nullptr);
        if (r.calibration) calibration_seconds += r.calibration->seconds;
    }
    return merge_marker_reports(std::move(reports)).timings;
}

std::string seconds_text(double s) { return fmt::format("{:.4g} s", s); }

} // namespace

void repeat_native_run(const MeasureRequest& request, MeasureResult& result, const TempDir& tmp, ColdCaches& cold) {
    RepeatPlan plan = plan_repeats(request.repeat, result.wall_seconds);
    result.native_runs = 1;
    if (plan.runs_total() > 1 && !result.status.exited) {
        // A crash or a kill is what there is to see: it is not run again for a better time.
        result.notes.push_back(fmt::format("the native run was {}: not repeated (a single run is the timing)",
                                           result.status.describe()));
        plan = {0, 1, plan.automatic};
    }
    if (plan.runs_total() > 1 && interrupt_signal()) plan = {0, 1, plan.automatic};
    std::vector<double> walls = {result.wall_seconds};
    std::vector<std::optional<CpuActivity>> activities = {result.timed_run_activity};
    std::vector<std::optional<std::vector<RegionTiming>>> regions = {result.timings};
    int unreadable = 0;
    std::string stopped;
    // The program's output is shown once, from its first run: a program printing results would
    // otherwise show them once per run (QuietOutput; a repeat that fails has its stderr quoted).
    if (plan.runs_total() > 1) note_quiet_output(result.notes);
    for (int run = 2; run <= plan.runs_total(); ++run) {
        if (interrupt_signal()) {
            stopped = fmt::format("interrupted by {} before native run {} of {}: the {} run{} before it {} kept",
                                  signal_name(interrupt_signal()), run, plan.runs_total(), run - 1,
                                  run == 2 ? "" : "s", run == 2 ? "is" : "are");
            break;
        }
        const auto marker_out = tmp.file(fmt::format("marker-run{}.json", run));
        auto env = request.env;
        env.emplace_back("ROOFLINE_MARKER_OUT", marker_out);
        ChildRun child;
        QuietOutput output;
        cold.flush();
        try {
            child = run_child(request.argv, env, {}, {}, kStopGraceSeconds, output.stdout_fd(), output.stderr_fd());
        } catch (const Interrupted&) {
            stopped = fmt::format("interrupted by {} before native run {} of {}: the {} run{} before it {} kept",
                                  signal_name(interrupt_signal()), run, plan.runs_total(), run - 1,
                                  run == 2 ? "" : "s", run == 2 ? "is" : "are");
            break;
        }
        output.finish();
        ++result.native_runs;
        if (interrupt_signal()) {
            stopped = fmt::format("interrupted by {} during native run {} of {}: its time is left out, the {} "
                                  "run{} before it {} kept",
                                  signal_name(interrupt_signal()), run, plan.runs_total(), run - 1,
                                  run == 2 ? "" : "s", run == 2 ? "is" : "are");
            break;
        }
        if (!child.status.exited || child.status.exit_code != result.status.exit_code) {
            result.warnings.push_back(fmt::format(
                "native run {} of {} {}, the first {}: it is left out and no further run is made (the program "
                "does not do the same each time it runs?){}",
                run, plan.runs_total(), child.status.describe(), result.status.describe(),
                stderr_tail_text(output.stderr_tail())));
            break;
        }
        double calibration_seconds = 0;
        auto later = later_run_regions(marker_out, calibration_seconds);
        walls.push_back(child.wall_seconds > calibration_seconds ? child.wall_seconds - calibration_seconds
                                                                 : child.wall_seconds);
        activities.push_back(child.activity);
        if (!later) ++unreadable;
        regions.push_back(std::move(later));
    }
    if (!stopped.empty()) result.warnings.push_back(stopped);
    if (unreadable)
        result.warnings.push_back(fmt::format("the marker library's output of {} repeated run{} could not be read: "
                                              "{} regions' times leave {} out",
                                              unreadable, unreadable == 1 ? "" : "s", "the",
                                              unreadable == 1 ? "it" : "them"));

    // The runs made: the planned warm-ups first, unless no run would be left to time (a stop
    // after the first run keeps it as the timing).
    const int made = static_cast<int>(walls.size());
    const int warmup = made > plan.warmup ? plan.warmup : 0;
    plan.timed = made - warmup;
    plan.warmup = warmup;
    result.repeat_plan = plan;
    const auto split = [&](const std::vector<double>& all, const std::vector<bool>& timed) {
        std::vector<double> t, w;
        for (std::size_t i = 0; i < all.size(); ++i) (timed[i] ? t : w).push_back(all[i]);
        return std::pair{t, w};
    };
    std::vector<bool> timed_run(walls.size());
    for (int i = 0; i < made; ++i) timed_run[static_cast<std::size_t>(i)] = i >= warmup;
    {
        const auto [t, w] = split(walls, timed_run);
        result.wall_timing = summarize_runs(t, w);
        result.wall_seconds = result.wall_timing->fastest;
        // The run the points' time comes from is the one whose disturbance matters.
        for (std::size_t i = 0; i < walls.size(); ++i)
            if (timed_run[i] && walls[i] == result.wall_seconds) {
                result.timed_run_activity = activities[i];
                break;
            }
    }
    // Each region of the first run, matched by name and occurrence in the others.
    result.region_timing.assign(result.timings.size(), std::nullopt);
    std::vector<std::map<RegionKey, const RegionTiming*>> keyed;
    for (const auto& r : regions) keyed.push_back(r ? by_key(*r) : std::map<RegionKey, const RegionTiming*>{});
    std::map<std::string, int> seen;
    for (std::size_t i = 0; i < result.timings.size(); ++i) {
        auto& timing = result.timings[i];
        const RegionKey key{timing.name, seen[timing.name]++};
        std::vector<double> t, w;
        double fastest_cost = 0, fastest = 0;
        for (std::size_t run = 0; run < keyed.size(); ++run) {
            const auto it = keyed[run].find(key);
            if (it == keyed[run].end()) continue;
            const RegionTiming& r = *it->second;
            // Left with no time of its own in any run: the calls' cost is all there is to see.
            if (!r.refused.empty() && timing.refused.empty())
                timing.refused = fmt::format("in native run {} of {}, {}", run + 1, keyed.size(), r.refused);
            if (!(r.seconds > 0) || !r.refused.empty()) continue;
            (timed_run[run] ? t : w).push_back(r.seconds);
            if (timed_run[run] && (fastest == 0 || r.seconds < fastest)) {
                fastest = r.seconds;
                fastest_cost = r.marker_cost_seconds;
            }
        }
        if (t.empty()) continue;  // only in the warm-up: its one time stands, unsummarized
        result.region_timing[i] = summarize_runs(t, w);
        timing.seconds = result.region_timing[i]->fastest;
        timing.marker_cost_seconds = fastest_cost;  // what that run's calls cost it
    }
    if (made > 1) {
        const auto& wt = *result.wall_timing;
        result.notes.push_back(fmt::format(
            "native runs (timing): {}{} timed, {} to {}: the points take the fastest (spread {:.1f}%, median {}){}",
            warmup ? fmt::format("{} warm-up ({}, left out), then ", warmup == 1 ? "1" : std::to_string(warmup),
                                 seconds_text(wt.warmup_seconds))
                   : std::string{},
            wt.runs, seconds_text(wt.fastest), seconds_text(wt.slowest), 100 * wt.spread(), seconds_text(wt.median),
            plan.automatic ? fmt::format(" (automatic: the first run took {}; --repeat K sets the number)",
                                         seconds_text(walls.front()))
                           : std::string{}));
    } else if (plan.automatic && result.status.exited && !interrupt_signal()) {
        result.notes.push_back(fmt::format("one native run (timing): it took {}, so it was not repeated (a program "
                                           "under {:.1f} s is; --repeat K asks for K runs)",
                                           seconds_text(walls.front()), kAutoRepeatBudgetSeconds / 3));
    }
    if (result.timed_run_activity)
        for (auto& w : cpu_activity_warnings(
                 *result.timed_run_activity, made > 1 ? "the fastest timed native run" : "the native run",
                 "the program waited for them, so its time is longer and its points sit lower than its code "
                 "alone would put them; run again when the machine is quieter (--repeat K takes the fastest of K "
                 "runs)"))
            result.warnings.push_back(std::move(w));
}

} // namespace detail
} // namespace roofline::measure
