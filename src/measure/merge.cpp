#include "measure/merge.hpp"

#include "measure/mpi_job.hpp"
#include "core/cut_off_point.hpp"
#include "core/llc_occupancy.hpp"
#include "core/math_library_flops.hpp"
#include "core/thread_imbalance.hpp"

#include <fmt/core.h>

#include <algorithm>
#include <stdexcept>

namespace roofline::measure {

void apply_llc_context(Point& p, const RegionCounts& c) {
    if (!(c.cache_llc_bytes > 0)) return;
    p.details[kCacheLlcBytes] = c.cache_llc_bytes;
    p.details[kCacheLlcLevel] = c.cache_llc_level;
    if (c.cache_llc_instances > 0) p.details[kCacheLlcInstances] = c.cache_llc_instances;
    if (c.cache_llc_cores_per_instance > 0) p.details[kCacheLlcCoresPerInstance] = c.cache_llc_cores_per_instance;
    if (c.cache_enclosing_touched_bytes > 0) {
        p.details[kCacheEnclosingTouchedBytes] = c.cache_enclosing_touched_bytes;
        if (c.cache_enclosing_region) p.details[kCacheEnclosingRegion] = 1;
    }
    if (c.cache_enclosing_threads > 0) p.details[kCacheEnclosingThreads] = c.cache_enclosing_threads;
}

void apply_counts(Point& p, const RegionCounts& c) {
    p.work = c.total_flops();
    p.work_unit = "FLOP";
    if (c.bytes_loaded > 0 || c.bytes_stored > 0) p.bytes["L1"] = c.bytes_loaded + c.bytes_stored;
    for (const auto& [level, bytes] : c.bytes_by_level) p.bytes[level] = bytes;
    for (const auto& [key, value] : c.flops) p.details["flops_" + key] = value;
    for (const auto& [width, value] : c.flops_by_width) p.details["flops_by_width_" + width] = value;
    // Of those, x87 instructions' (long double): report says vectorizing cannot reach them.
    if (c.flops_x87 > 0) p.details["flops_x87"] = c.flops_x87;
    if (c.bytes_loaded > 0 || c.bytes_stored > 0) {
        p.details["bytes_loaded"] = c.bytes_loaded;
        p.details["bytes_stored"] = c.bytes_stored;
    }
    for (const auto& [event, value] : c.events) p.details["event_" + event] = value;
    for (const auto& [key, value] : c.cache_traffic) p.details["cache_" + key + "_bytes"] = value;
    if (c.cache_touched_bytes > 0) p.details[kCacheTouchedBytes] = c.cache_touched_bytes;
    if (c.cache_working_set_bytes > 0) p.details[kCacheWorkingSetBytes] = c.cache_working_set_bytes;
    apply_llc_context(p, c);
    if (c.calls > 0) p.details["calls"] = static_cast<double>(c.calls);
    // A region's (or loop's) FLOPs that ran in a math library's code (libm's exp called inside it):
    // the note core/math_library_flops makes of it, as of the program's (attribute_program_work).
    double math = 0;
    for (const auto& [file, flops] : c.flops_by_object)
        if (is_math_library(file)) math += flops;
    if (math > 0) p.details[kMathLibraryFlops] = math;
    // Each thread's share (core/thread_imbalance): the threads that did the work, the busiest one's.
    if (c.threads_working > 0) p.details[kThreadsWorking] = c.threads_working;
    if (c.busiest_thread_flops > 0) p.details[kBusiestThreadFlops] = c.busiest_thread_flops;
    if (c.busiest_thread_bytes > 0) p.details[kBusiestThreadBytes] = c.busiest_thread_bytes;
}

void attribute_program_work(Point& p, const std::vector<RegionCounts>& functions) {
    if (!p.work_counted || !(p.work > 0)) return;
    const RegionCounts* top = nullptr;
    std::map<std::string, double> by_file;
    for (const auto& f : functions) {
        const double flops = f.total_flops();
        if (!(flops > 0)) continue;
        if (!top || flops > top->total_flops()) top = &f;
        if (!f.object.empty()) by_file[f.object] += flops;
    }
    if (top && top->total_flops() >= kMainWorkShare * p.work) {
        p.main_function = top->name;
        p.details[kMainFunctionFlops] = top->total_flops();
        if (top->entries > 0) p.details[kMainFunctionCalls] = top->entries;
        if (top->instructions > 0) p.details[kMainFunctionInstructions] = top->instructions;
    }
    double math = 0;
    for (const auto& [file, flops] : by_file) {
        if (p.object.empty() && flops >= kMainWorkShare * p.work) p.object = file;
        if (is_math_library(file)) math += flops;
    }
    if (math > 0) p.details[kMathLibraryFlops] = math;
}

EarlierTimes earlier_times(const std::vector<Point>& points, std::optional<int> rank, const std::string& source) {
    EarlierTimes out;
    out.source = source;
    const bool per_rank = std::any_of(points.begin(), points.end(),
                                      [](const Point& p) { return p.details.count("mpi_rank") > 0; });
    for (const auto& p : points) {
        std::string name = p.name;
        if (per_rank) {
            const auto it = p.details.find("mpi_rank");
            if (it == p.details.end()) continue;  // a sum over ranks
            if (rank && it->second != *rank) continue;
            if (!rank) throw std::invalid_argument(fmt::format(
                "{} holds the points of an MPI job's ranks: take times from it inside the same launch "
                "(mpirun ... roofline measure --times {} ...)", source, source));
            const auto suffix = rank_point_name("", *rank);  // " [rank R]"
            if (name.size() > suffix.size() && name.ends_with(suffix)) name.erase(name.size() - suffix.size());
        }
        if (name == kProgramRegion) {
            out.wall_seconds = p.seconds;
            out.wall_timing = timing_of(p);
            continue;
        }
        RegionTiming t;
        t.name = name;
        t.seconds = p.seconds;
        t.threads = p.threads;
        // What the marker calls' own counts are subtracted for (marker_cost.hpp).
        if (const auto o = p.details.find("marker_outermost_calls"); o != p.details.end())
            t.outermost_calls = static_cast<long long>(o->second);
        if (const auto in = p.details.find("marker_inner_calls"); in != p.details.end())
            t.inner_calls = static_cast<long long>(in->second);
        if (const auto c = p.details.find("calls"); c != p.details.end()) t.calls = static_cast<long long>(c->second);
        out.timings.push_back(std::move(t));
        out.region_timing.push_back(timing_of(p));
    }
    if (out.timings.empty() && out.wall_seconds <= 0)
        throw std::invalid_argument(rank ? fmt::format("{} has no points of rank {}", source, *rank)
                                         : fmt::format("{} has no points to take times from", source));
    return out;
}

std::vector<Point> merge_points(const MeasureResult& result, std::vector<std::string>* skipped) {
    // The engines' names are their points' origins ("instrument", "perf", "time").
    const auto source = PointSource::from_name(engine_name(result.engine));
    auto counts_for = [&](const std::string& name) -> const RegionCounts* {
        const auto it = std::find_if(result.counts.begin(), result.counts.end(),
                                     [&](const RegionCounts& c) { return c.name == name; });
        return it == result.counts.end() ? nullptr : &*it;
    };
    std::vector<Point> points;
    int max_threads = 1;
    for (std::size_t i = 0; i < result.timings.size(); ++i) {
        const auto& t = result.timings[i];
        if (t.name == kProgramRegion) continue;
        const auto* counted = counts_for(t.name);
        // A region the marker calls' own cost leaves nothing of (marker_cost.hpp): no point
        // (refused_regions says why).
        if (!t.refused.empty() || (counted && !counted->refused.empty())) continue;
        Point p;
        p.name = t.name;
        p.seconds = t.seconds;
        p.threads = std::max(1, t.threads);
        p.source = source;
        if (const auto* c = counts_for(t.name)) {
            apply_counts(p, *c);
            // The most threads that did the work at once (a pool started by a library
            // included), not only those that opened the region; but at least the native
            // run's count: under Valgrind, which runs one thread at a time, a short thread
            // may finish before the next one was even created there.
            if (c->threads > 0) p.threads = std::max(p.threads, c->threads);
        } else {
            p.work_counted = false;  // timed only
        }
        max_threads = std::max(max_threads, p.threads);
        if (t.calls > 0) p.details["calls"] = static_cast<double>(t.calls);
        if (t.marker_cost_seconds > 0) p.details["marker_cost_seconds"] = t.marker_cost_seconds;
        if (t.outermost_calls >= 0 && t.outermost_calls != t.calls)
            p.details["marker_outermost_calls"] = static_cast<double>(t.outermost_calls);
        if (t.inner_calls > 0) p.details["marker_inner_calls"] = static_cast<double>(t.inner_calls);
        // Still open when a signal ended the program: the library closed it as it wrote at the signal,
        // so its time is only the part that ran (core/cut_off_point); the point carries the signal.
        if (t.unclosed > 0 && !result.status.exited && result.status.signal > 0)
            p.details[kCutOffBySignal] = result.status.signal;
        if (counted)
            for (const auto& [figure, value] : counted->marker_cost)
                if (value > 0) p.details["marker_cost_" + figure] = value;
        // The native run repeated: the fastest timed run, with the runs and their spread.
        if (i < result.region_timing.size() && result.region_timing[i]) record_timing(p, *result.region_timing[i]);
        if (result.cpus_allowed > 0) p.details[kCpusAllowed] = result.cpus_allowed;
        if (p.seconds > 0) points.push_back(std::move(p));
        else if (skipped) skipped->push_back(t.name + " (no time recorded)");
    }
    if (result.wall_seconds > 0) {
        Point p;
        p.name = kProgramRegion;
        p.seconds = result.wall_seconds;
        // The busiest region's thread count stands for the program's: the roofline
        // to compare against is the one for the threads the program used.
        p.threads = max_threads;
        p.source = source;
        if (result.wall_timing) record_timing(p, *result.wall_timing);
        // The native run (cpu_wall_seconds: not times read from --times) ended by a signal: the
        // program's time is that of the part that ran before it.
        if (result.cpu_wall_seconds > 0 && !result.status.exited && result.status.signal > 0)
            p.details[kCutOffBySignal] = result.status.signal;
        if (result.cpus_allowed > 0) p.details[kCpusAllowed] = result.cpus_allowed;
        if (result.cpu_wall_seconds > 0) {
            p.details["cpu_user_seconds"] = result.cpu_user_seconds;
            p.details["cpu_system_seconds"] = result.cpu_system_seconds;
            p.details["cpu_wall_seconds"] = result.cpu_wall_seconds;
        }
        if (const auto& a = result.timed_run_activity; a && a->cpus > 0) {
            p.details["cpu_steal_share"] = a->steal_share();
            p.details["cpu_others_busy"] = a->others_cpus;
            // What those shares are of, so a reader can tell a few ticks from a busy machine.
            p.details["cpu_activity_seconds"] = a->wall_seconds;
            p.details["cpu_activity_cpus"] = a->cpus;
        }
        // The CPUs its first native run kept busy on average (CPU time over wall time).
        const double busy = result.cpu_wall_seconds > 0
                                ? (result.cpu_user_seconds + result.cpu_system_seconds) / result.cpu_wall_seconds
                                : 0;
        if (const auto* c = counts_for(kProgramRegion)) {
            apply_counts(p, *c);
            // The most threads that did work at once, counted by the tool (a serial part on the
            // main thread, then 2 workers it joins: 2, not the 3 that did work); but at least the
            // busiest region's: under Valgrind a short thread may finish before the next starts.
            if (c->threads > 0) p.threads = std::max(p.threads, c->threads);
            attribute_program_work(p, result.functions);
        } else {
            p.work_counted = false;
        }
        // Nothing counted more than one thread at once (no tool, no marker region wider than one,
        // or the tool saw one at a time: it runs one thread at a time, and a worker that finished
        // before its sibling started, 2 of 10 runs of a serial-then-2-workers program, reads 1):
        // the CPUs its first run kept busy, when clearly more than one (an OpenMP program without
        // the marker library read 1 thread; its CPU time over wall time reads 2). A count of 2 or
        // more stands: CPU time counts threads spinning at a barrier too.
        const bool one_at_a_time = p.threads <= 1;
        if (one_at_a_time && busy >= 1.5) {
            p.threads = static_cast<int>(busy + 0.5);
            p.details["threads_from_cpu_time"] = busy;
        }
        points.push_back(std::move(p));
    }
    if (skipped) {
        for (const auto& c : result.counts) {
            if (c.name == kProgramRegion) continue;
            const bool timed = std::any_of(result.timings.begin(), result.timings.end(),
                                           [&](const RegionTiming& t) { return t.name == c.name; });
            // A region the program only ended (no begin) is one the tool still names, with no call.
            if (!timed)
                skipped->push_back(c.name + (c.calls == 0 ? " (ended without a begin: it never ran)"
                                                          : " (counted, but no native timing)"));
        }
    }
    return points;
}

std::vector<std::string> refused_regions(const MeasureResult& result) {
    std::vector<std::string> out;
    for (const auto& t : result.timings)
        if (!t.refused.empty()) out.push_back(fmt::format("region '{}' gets no point: {}", t.name, t.refused));
    for (const auto& c : result.counts)
        if (!c.refused.empty()) out.push_back(fmt::format("region '{}' gets no point: {}", c.name, c.refused));
    return out;
}

} // namespace roofline::measure
