// The marker monitor's samples from the job's snapshots; see app/marker_monitor.hpp.
#include "app/marker_monitor.hpp"

#include "app/request_error.hpp"
#include "io/monitor_dir.hpp"
#include "io/points_json.hpp"
#include "measure/monitor_snapshot.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <stdexcept>

namespace roofline::app {
namespace {

// CLOCK_MONOTONIC on Linux, as the snapshots' times.
std::uint64_t monotonic_ns() {
    return static_cast<std::uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(
                                          std::chrono::steady_clock::now().time_since_epoch())
                                          .count());
}

} // namespace

MarkerMonitor::MarkerMonitor(MarkerMonitorRequest request, MarkerMonitorNotes notes)
    : request_(std::move(request)), notes_(std::move(notes)) {
    try {
        counts_ = per_call_counts(read_points_file(request_.counts));
    } catch (const std::invalid_argument& e) {
        throw std::runtime_error(fmt::format("{}: {}", request_.counts, e.what()));
    }
    only_.insert(request_.regions.begin(), request_.regions.end());
    for (const auto& r : only_)
        if (!counts_.count(r)) {
            std::vector<std::string> names;
            for (const auto& [name, work] : counts_) names.push_back(name);
            throw RequestError(fmt::format("--region '{}' is not in {} (its regions: {})", r, request_.counts,
                                           fmt::join(names, ", ")));
        }
    prepare_monitor_dir(request_.dir);
}

void MarkerMonitor::describe(Provenance& provenance) const {
    provenance.engine = "monitor";
    provenance.runs = {"monitor"};
    provenance.options["counts"] = request_.counts;
}

void MarkerMonitor::start() {
    start_ns_ = monotonic_ns();
    take(measure::scan_monitor_dir(request_.dir, request_.job).snapshots);  // baselines
}

// The deltas since the last look; a process that started before the monitor is a baseline
// at first sight (its past is not this interval's), one that started after counts from its start.
std::map<std::string, MarkerMonitor::JobDeltas> MarkerMonitor::take(const std::vector<ProcessSnapshot>& snapshots) {
    std::map<std::string, JobDeltas> jobs;
    for (const auto& s : snapshots) {
        const ProcessKey key{s.pid, s.start_ns};
        if (done_.count(key)) continue;
        seen_any_ = true;
        const auto it = last_.find(key);
        if (it == last_.end() && s.start_ns < start_ns_) {
            last_[key] = s;
            if (s.finished) done_.insert(key);
            continue;
        }
        if (it != last_.end() && s.time_ns <= it->second.time_ns) continue;  // nothing new yet
        JobDeltas& job = jobs[s.job];
        try {
            job.deltas.push_back(snapshot_delta(it == last_.end() ? nullptr : &it->second, s));
        } catch (const std::invalid_argument&) {
            continue;  // a snapshot out of order: wait for the next
        }
        job.latest_ns = std::max(job.latest_ns, s.time_ns);
        last_[key] = s;
        if (s.finished) {
            done_.insert(key);
            last_.erase(key);
        }
    }
    std::erase_if(jobs, [](const auto& j) { return j.second.deltas.empty(); });
    return jobs;
}

std::vector<MarkerJobSample> MarkerMonitor::sample() {
    const auto note = [&](MarkerMonitorNote n) {
        if (notes_) notes_(n);
    };
    const auto scan = measure::scan_monitor_dir(request_.dir, request_.job);
    for (const auto& p : scan.problems)
        if (said_problems_.insert(p).second) note({MarkerMonitorNote::Kind::unreadable_snapshot, p});
    auto jobs = take(scan.snapshots);
    // A program that runs without ROOFLINE_JOB_ID or SLURM_JOB_ID belongs to no job.
    if (jobs.erase("") && !said_no_job_) {
        note({MarkerMonitorNote::Kind::snapshot_without_job, ""});
        said_no_job_ = true;
    }
    std::vector<MarkerJobSample> samples;
    if (jobs.empty()) {
        if (!seen_any_ && !said_waiting_) {
            note({MarkerMonitorNote::Kind::nothing_published_yet, "", scan.other_jobs});
            said_waiting_ = true;
        }
        return samples;
    }
    for (const auto& [job, taken] : jobs) {
        auto interval = interval_sample(taken.deltas, counts_, only_);
        MarkerJobSample s;
        for (const auto& m : interval.regions_missing)
            if (said_uncounted_.insert(m).second) s.regions_uncounted.push_back(m);
        // The interval ended with the latest snapshot, not now.
        s.sample.end_unix = unix_seconds() - double(monotonic_ns() - taken.latest_ns) * 1e-9;
        s.sample.job = job;
        s.sample.point = std::move(interval.point);
        s.sample.processes = taken.deltas.size();
        s.calls = interval.calls;
        samples.push_back(std::move(s));
    }
    return samples;
}

} // namespace roofline::app
