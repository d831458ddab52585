#include "core/monitor_sample.hpp"

#include <algorithm>
#include <stdexcept>

namespace roofline {

namespace {
bool per_call_detail(const std::string& key) {
    return key.rfind("flops_", 0) == 0 || key.rfind("bytes_", 0) == 0 || key.rfind("cache_", 0) == 0;
}
} // namespace

PerCallCounts per_call_counts(const std::vector<Point>& points) {
    PerCallCounts counts;
    for (const auto& p : points) {
        const auto c = p.details.find("calls");
        if (c == p.details.end() || !(c->second >= 1)) continue;
        const double calls = c->second;
        PerCallWork w;
        w.work = p.work / calls;
        w.work_counted = p.work_counted;
        w.work_unit = p.work_unit;
        for (const auto& [level, bytes] : p.bytes) w.bytes[level] = bytes / calls;
        for (const auto& [key, value] : p.details)
            if (per_call_detail(key)) w.details[key] = value / calls;
        counts[p.name] = std::move(w);
    }
    if (counts.empty())
        throw std::invalid_argument("no point has a call count (details.calls): measure the program's marked regions "
                                    "with 'roofline measure --engine instrument'");
    return counts;
}

ProcessDelta snapshot_delta(const ProcessSnapshot* previous, const ProcessSnapshot& current) {
    if (previous && previous->pid != current.pid)
        throw std::invalid_argument("snapshots of two processes");
    const std::uint64_t from = previous ? previous->time_ns : current.start_ns;
    if (current.time_ns < from) throw std::invalid_argument("snapshot older than the one before it");
    ProcessDelta d;
    d.pid = current.pid;
    d.seconds = double(current.time_ns - from) * 1e-9;
    for (const auto& r : current.regions) {
        long long calls = r.calls;
        double busy = r.seconds;
        if (previous) {
            const auto it = std::find_if(previous->regions.begin(), previous->regions.end(),
                                         [&](const RegionTotals& q) { return q.name == r.name; });
            if (it != previous->regions.end() && it->calls <= r.calls && it->seconds <= r.seconds) {
                calls -= it->calls;
                busy -= it->seconds;
            }
        }
        d.calls[r.name] = calls;
        d.busy_seconds[r.name] = busy;
        d.threads[r.name] = r.threads;
        if (r.nested) d.nested.insert(r.name);
    }
    return d;
}

IntervalSample interval_sample(const std::vector<ProcessDelta>& deltas, const PerCallCounts& counts,
                               const std::set<std::string>& only) {
    IntervalSample s;
    Point& p = s.point;
    p.source = PointOrigin::monitor;
    p.threads = 0;
    std::set<std::string> counted, missing;
    bool any_uncounted = false;
    double busy = 0;
    for (const auto& d : deltas) {
        p.seconds = std::max(p.seconds, d.seconds);
        int threads = 0;
        for (const auto& [name, calls] : d.calls) {
            const bool chosen = only.empty() ? !d.nested.count(name) : only.count(name) > 0;
            if (!chosen) continue;
            const auto w = counts.find(name);
            if (w == counts.end()) {
                if (calls > 0) missing.insert(name);
                continue;
            }
            threads = std::max(threads, d.threads.at(name));
            if (calls <= 0) continue;
            counted.insert(name);
            const double n = double(calls);
            s.calls += n;
            busy += d.busy_seconds.at(name);
            p.work_unit = w->second.work_unit;
            if (!w->second.work_counted) any_uncounted = true;
            p.work += n * w->second.work;
            for (const auto& [level, bytes] : w->second.bytes) p.bytes[level] += n * bytes;
            for (const auto& [key, value] : w->second.details) p.details[key] += n * value;
        }
        p.threads += threads;
    }
    p.threads = std::max(p.threads, 1);
    p.work_counted = !any_uncounted;
    p.details["calls"] = s.calls;
    p.details["monitor_processes"] = double(deltas.size());
    p.details["monitor_busy_seconds"] = busy;
    s.regions_counted.assign(counted.begin(), counted.end());
    s.regions_missing.assign(missing.begin(), missing.end());
    return s;
}

} // namespace roofline
