#include "measure/marker_cost.hpp"

#include "core/statistics.hpp"
#include "measure/function_regions.hpp"
#include "measure/merge.hpp"

#include <fmt/core.h>
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <functional>

namespace roofline::measure {

bool is_calibration_region(const std::string& name) { return name == kCalibrationRegion || name == kCalibrationWhole; }

bool CallCost::steady() const { return batches > 0 && high - low <= 0.25 * median; }

CallCost summarize_cost(const std::vector<double>& per_batch) {
    CallCost c;
    c.batches = static_cast<int>(per_batch.size());
    if (per_batch.empty()) return c;
    c.median = median(per_batch);
    c.low = quantile(per_batch, 0.25);
    c.high = quantile(per_batch, 0.75);
    return c;
}

namespace {

std::string ns_text(double ns) {
    if (ns >= 1e9) return fmt::format("{:.3g} s", ns * 1e-9);
    if (ns >= 1e6) return fmt::format("{:.3g} ms", ns * 1e-6);
    if (ns >= 1e4) return fmt::format("{:.3g} us", ns * 1e-3);
    return fmt::format("{:.3g} ns", ns);
}

// A call's work beyond begin's part is told from work hidden under end's (B) only past this
// many B: the store and reload of values kept across the calls add a few ns even to work that
// end hides entirely.
constexpr double kHiddenUnderEnd = 1.25;

// A region's calls: the outermost ones (each adds the in-region part of a pair) and those of
// regions opened inside it (each adds a whole pair).
struct CallsIn {
    double outermost = 0, inner = 0;
};
CallsIn calls_in(const RegionTiming& t) {
    return {static_cast<double>(t.outermost_calls >= 0 ? t.outermost_calls : t.calls),
            static_cast<double>(t.inner_calls)};
}

std::string per_call_text(const CallsIn& calls, const std::function<std::string(double)>& text, double raw,
                          double cost) {
    const double n = std::max(1.0, calls.outermost);
    return fmt::format("{} of its {} a call ({:.0f}%)", text(cost / n), text(raw / n), 100 * cost / raw);
}

} // namespace

void subtract_marker_time(std::vector<RegionTiming>& timings, std::vector<RegionCounts>& counters,
                          const MarkerCalibration* calibration, CostMessages* messages) {
    if (timings.empty()) return;
    if (!calibration || calibration->time_ns.region.empty()) {
        if (messages)
            messages->notes.push_back("the marker calls' own time is not subtracted: the marker library wrote no "
                                      "calibration (a libroofline_marker older than this roofline?), so each "
                                      "region's time holds its calls' (about 30 ns a call)");
        return;
    }
    const auto& cal = *calibration;
    const CallCost empty = summarize_cost(cal.time_ns.region);  // A + B
    // What a region opened inside another adds to that one (measured around regions holding work).
    const CallCost pair = summarize_cost(cal.nested_ns.empty() ? cal.time_ns.pair : cal.nested_ns);
    // A: the part no work overlaps; B = (A + B) - A, batch by batch.
    const CallCost begin = cal.begin_ns.empty() ? empty : summarize_cost(cal.begin_ns);
    std::vector<double> end_batches;
    for (std::size_t i = 0; i < cal.begin_ns.size() && i < cal.time_ns.region.size(); ++i)
        end_batches.push_back(std::max(0.0, cal.time_ns.region[i] - cal.begin_ns[i]));
    const CallCost end = summarize_cost(end_batches);
    const double a = begin.median, b = std::max(0.0, empty.median - begin.median);
    const bool steady = empty.steady() && pair.steady() && (cal.begin_ns.empty() || begin.steady());
    const auto time_text = [](double s) { return ns_text(s * 1e9); };
    bool any_inner = false;
    for (auto& t : timings) {
        const CallsIn calls = calls_in(t);
        any_inner = any_inner || calls.inner > 0;
        const double raw_sum = t.thread_seconds > 0 ? t.thread_seconds : t.seconds;
        const double n = std::max(1.0, calls.outermost);
        const double inner_cost = calls.inner * pair.median * 1e-9;
        const double calls_cost = n * (a + b) * 1e-9 + inner_cost;  // all of the calls' own time
        if (raw_sum <= 0 || calls_cost <= 0) continue;
        const bool weighs = calls_cost >= kCostShareWarned * raw_sum;
        if (!steady) {
            if (weighs && messages)
                messages->warnings.push_back(fmt::format(
                    "region '{}': the marker calls' own time is {} (not subtracted: the calibration was unsteady), "
                    "so its time is mostly theirs; mark a larger piece of work",
                    t.name, per_call_text(calls, time_text, raw_sum, calls_cost)));
            continue;
        }
        const double r = (raw_sum - inner_cost) / n * 1e9;  // a call's mean, ns, inner regions' pairs taken off
        if (r - a <= kHiddenUnderEnd * b) {
            t.refused = fmt::format(
                "its {} a call (mean) leaves {} beyond the marker calls' {} before its work can start, not clearly "
                "more than the {} of end that its work runs beside (measured in the same run): work that short "
                "hides under the end call, anywhere from 0 to {} a call, and cannot be timed with markers; mark a "
                "larger piece of work (several steps a region)",
                ns_text(r), ns_text(std::max(0.0, r - a)), ns_text(a), ns_text(b), ns_text(std::max(0.0, r - a)));
            continue;
        }
        const double taken = n * a * 1e-9 + inner_cost;
        const double kept = t.seconds * (raw_sum - taken) / raw_sum;
        if (weighs && messages) {
            // Left: its work ran beside end's part (as a chain of work does); as little as `lowest` had
            // nothing of it, nor of the regions inside it, run beside their end calls.
            const double lowest = std::max(0.0, r - a - b - calls.inner / n * b);
            messages->warnings.push_back(fmt::format(
                "region '{}': the marker calls' own time is {}; subtracted: {} a call before its work can "
                "start{}; left: {} a call, or as little as {} had no work run beside the end calls' {} (the "
                "calibration's quartiles: {} to {} before the work, {} to {} of end); so small a region is an "
                "estimate",
                t.name, per_call_text(calls, time_text, raw_sum, calls_cost), ns_text(a),
                calls.inner > 0 ? fmt::format(", and {:.0f} regions opened inside it at {} each", calls.inner,
                                              ns_text(pair.median))
                                : std::string{},
                time_text((raw_sum - taken) / n), time_text(lowest * 1e-9), ns_text(b), ns_text(begin.low),
                ns_text(begin.high), ns_text(end.low), ns_text(end.high)));
        }
        t.marker_cost_seconds = t.seconds - kept;
        t.seconds = kept;
    }
    // The perf engine's counters: the same calls, each event's own cost.
    std::vector<std::string> unsteady_events;
    for (const auto& [event, series] : cal.counters) {
        const CallCost ev_region = summarize_cost(series.region);
        const CallCost ev_pair = summarize_cost(series.pair);
        const bool ev_steady = (ev_region.median == 0 || ev_region.steady()) && (ev_pair.median == 0 || ev_pair.steady());
        if (!ev_steady) {
            unsteady_events.push_back(event);
            continue;
        }
        for (auto& c : counters) {
            const auto it = c.events.find(event);
            if (it == c.events.end()) continue;
            const auto t = std::find_if(timings.begin(), timings.end(), [&](const RegionTiming& x) { return x.name == c.name; });
            if (t == timings.end()) continue;
            const CallsIn calls = calls_in(*t);
            const double cost = calls.outermost * ev_region.median + calls.inner * ev_pair.median;
            if (cost <= 0) continue;
            const double left = it->second - cost;
            if (left < 0 && t->refused.empty())
                t->refused = fmt::format("its {} count of {:.0f} is less than the marker calls' own {:.0f} measured "
                                         "in the same run: nothing of its own is left to count",
                                         event, it->second, cost);
            c.marker_cost["event_" + event] = std::min(cost, it->second);
            it->second = std::max(0.0, left);
        }
    }
    if (!messages) return;
    messages->notes.push_back(fmt::format(
        "{} the marker calls' own time, measured by the marker library at its start in this run (medians of "
        "{} batches of {} empty regions, and of regions holding a known chain of work{}): a call of a region "
        "holds {} of the calls (quartiles {} to {}), of which {} come before its work can start (quartiles {} "
        "to {}) and are subtracted; the other {}, end's part before its clock read, run beside the region's "
        "work and are not; a region whose calls last no more than {} (the first part and 1.25 times the other) "
        "gets no point: its work may be hidden under the calls{}",
        steady ? "subtracted from each region's time:" : "NOT subtracted (unsteady calibration):", empty.batches,
        cal.pairs,
        cal.seconds > 0 ? fmt::format("; {:.3g} ms, left out of the program's time", cal.seconds * 1e3)
                        : std::string{},
        ns_text(empty.median), ns_text(empty.low), ns_text(empty.high), ns_text(a), ns_text(begin.low),
        ns_text(begin.high), ns_text(b), ns_text(a + kHiddenUnderEnd * b),
        any_inner ? fmt::format("; each region opened inside another takes {} off that one, a whole pair "
                                "less what the work overlaps (quartiles {} to {})",
                                ns_text(pair.median), ns_text(pair.low), ns_text(pair.high))
                  : std::string{}));
    if (!cal.counters.empty()) {
        std::vector<std::string> events;
        for (const auto& [event, series] : cal.counters)
            if (std::find(unsteady_events.begin(), unsteady_events.end(), event) == unsteady_events.end())
                events.push_back(fmt::format("{} {:.3g}", event, summarize_cost(series.region).median));
        if (!events.empty())
            messages->notes.push_back(fmt::format("the marker calls' own counts subtracted from each region's "
                                                  "counters, per call (same calibration): {}",
                                                  fmt::join(events, ", ")));
        if (!unsteady_events.empty())
            messages->warnings.push_back(fmt::format("the marker calls' own counts of {} are not subtracted: they "
                                                     "varied from batch to batch of the calibration",
                                                     fmt::join(unsteady_events, ", ")));
    }
}

void subtract_marker_counts(std::vector<RegionCounts>& counts, const std::vector<RegionTiming>& timings,
                            CostMessages& messages) {
    const auto find = [&](const char* name) {
        return std::find_if(counts.begin(), counts.end(), [&](const RegionCounts& c) { return c.name == name; });
    };
    auto region_it = find(kCalibrationRegion);
    auto whole_it = find(kCalibrationWhole);
    const bool marked = std::any_of(counts.begin(), counts.end(), [](const RegionCounts& c) {
        return c.name != kProgramRegion && function_of_region(c.name).empty() && !is_calibration_region(c.name);
    });
    if (region_it == counts.end() || whole_it == counts.end() || region_it->calls <= 0 || whole_it->calls != 1 ||
        region_it->threads > 1) {
        if (marked)
            messages.notes.push_back(
                region_it != counts.end() && region_it->threads > 1
                    ? "the marker calls' own counts are not subtracted: another thread ran while the library "
                      "calibrated them"
                    : "the marker calls' own counts are not subtracted: the marker library did not calibrate them "
                      "under the Valgrind tool (a libroofline_marker older than this roofline?), so each region "
                      "holds its calls' (a few hundred bytes and about a hundred instructions a call)");
        std::erase_if(counts, [](const RegionCounts& c) { return is_calibration_region(c.name); });
        return;
    }
    const RegionCounts region = *region_it;
    const RegionCounts whole = *whole_it;
    std::erase_if(counts, [](const RegionCounts& c) { return is_calibration_region(c.name); });
    const double n = static_cast<double>(region.calls);

    // Every figure the calls move: (per call inside a region, per whole pair).
    struct Figure {
        std::string key;
        std::function<double&(RegionCounts&)> of;
    };
    std::vector<Figure> figures = {{"bytes_loaded", [](RegionCounts& c) -> double& { return c.bytes_loaded; }},
                                   {"bytes_stored", [](RegionCounts& c) -> double& { return c.bytes_stored; }},
                                   {"instructions", [](RegionCounts& c) -> double& { return c.instructions; }}};
    for (const auto& [kind, v] : region.flops)
        if (v > 0) figures.push_back({"flops_" + kind, [k = kind](RegionCounts& c) -> double& { return c.flops[k]; }});
    for (const auto& [width, v] : region.flops_by_width)
        if (v > 0)
            figures.push_back({"flops_by_width_" + width,
                               [w = width](RegionCounts& c) -> double& { return c.flops_by_width[w]; }});
    struct Cost {
        double in_region = 0, pair = 0;
    };
    std::vector<Cost> cost;
    RegionCounts r = region, w = whole;
    for (const auto& f : figures) {
        const double in = f.of(r) / n;
        cost.push_back({in, std::max(0.0, (f.of(w) - in) / n)});
    }

    bool inner_unknown = false;
    std::vector<std::string> warned;
    for (auto& c : counts) {
        const bool program = c.name == kProgramRegion;
        if (!program && !function_of_region(c.name).empty()) continue;  // a function's calls hold no markers of their own
        CallsIn calls{static_cast<double>(c.calls), 0};
        if (program) {
            calls = {1, n + 1};  // the calibration: its pairs and the whole one around them
        } else {
            const auto t = std::find_if(timings.begin(), timings.end(), [&](const RegionTiming& x) { return x.name == c.name; });
            if (t != timings.end() && t->calls == c.calls) calls = calls_in(*t);
            else inner_unknown = true;
        }
        const double raw_bytes = c.bytes_loaded + c.bytes_stored;
        const double raw_instructions = c.instructions;
        for (std::size_t i = 0; i < figures.size(); ++i) {
            // (program) loses the calibration: its pairs and the whole pair around them.
            const double take = program ? cost[i].pair * (n + 1)
                                        : calls.outermost * cost[i].in_region + calls.inner * cost[i].pair;
            if (take <= 0) continue;
            double& value = figures[i].of(c);
            double left = value - take;
            if (left < 0 && left > -0.5) left = 0;  // the tool's counts are whole: a rounding of the per-call split
            if (left < 0) {
                if (c.refused.empty() && !program)
                    c.refused = fmt::format("its {} under the Valgrind tool ({:.0f}) are fewer than the marker calls' "
                                            "own ({:.0f}) counted in the same run: the calls are not those calibrated",
                                            figures[i].key, value, take);
                left = 0;
            }
            c.marker_cost[figures[i].key] = value - left;
            value = left;
        }
        if (program) continue;
        const double bytes_cost = raw_bytes - (c.bytes_loaded + c.bytes_stored);
        const double n_calls = std::max(1.0, calls.outermost);
        if (raw_bytes > 0 && bytes_cost >= kCostShareWarned * raw_bytes)
            warned.push_back(fmt::format("region '{}': {:.0f} of its {:.0f} bytes a call ({:.0f}%) and {:.0f} of its "
                                         "{:.0f} instructions were the marker calls' own, subtracted: {:.0f} bytes a "
                                         "call are its own",
                                         c.name, bytes_cost / n_calls, raw_bytes / n_calls, 100 * bytes_cost / raw_bytes,
                                         (raw_instructions - c.instructions) / n_calls, raw_instructions / n_calls,
                                         (c.bytes_loaded + c.bytes_stored) / n_calls));
    }
    for (auto& text : warned) messages.warnings.push_back(std::move(text));
    messages.notes.push_back(fmt::format(
        "subtracted from each region's counts, the marker calls' own under the Valgrind tool: {:.0f} bytes loaded, "
        "{:.0f} stored and {:.0f} instructions for each call of a region (the part of roofline_begin and "
        "roofline_end inside it), {:.0f}, {:.0f} and {:.0f} for each region opened inside it (a whole pair); counted "
        "by the tool over {:.0f} empty regions the marker library ran at its start, where every call runs the same "
        "instructions; the calibration's own counts are taken off (program){}",
        cost[0].in_region, cost[1].in_region, cost[2].in_region, cost[0].pair, cost[1].pair, cost[2].pair, n,
        inner_unknown ? "; a region whose calls the native run did not count alike has only its own calls' cost "
                        "subtracted, not that of regions opened inside it"
                      : ""));
}

} // namespace roofline::measure
