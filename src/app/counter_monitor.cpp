#include "app/counter_monitor.hpp"

#include "io/install_layout.hpp"
#include "measure/cpu_event_set.hpp"
#include "measure/event_file.hpp"
#include "measure/job_counters.hpp"
#include "measure/merge.hpp"
#include "measure/perf_events.hpp"
#include "measure/sysfs_pmu.hpp"

#include <fmt/format.h>

#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <map>
#include <set>
#include <stdexcept>

namespace roofline::app {
namespace {

using Clock = std::chrono::steady_clock;

struct JobState {
    std::unique_ptr<measure::JobCounters> counters;
    std::map<std::string, double> last;  // totals at the last sample
    Clock::time_point last_time;
    std::size_t processes = 0;
    int interval_threads = 0;  // the most threads counted at once since the last sample
};

} // namespace

double unix_seconds() {
    return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
}

struct CounterMonitor::State {
    CounterMonitorRequest request;
    CounterMonitorNotes notes;
    measure::CpuEventSet events;
    // Whole-CPU counters (memory controllers, data fabric) count the node, not a job: one job only.
    measure::SystemCounters node_counters;
    std::map<std::string, JobState> jobs;
    std::map<std::string, double> node_last;
    bool said_waiting = false;
    int unreadable = 0;  // processes whose environment we may not read (other users', without root)
    std::set<std::string> said_failures;

    void note(CounterMonitorNote::Kind kind, std::string job, std::string text) {
        if (notes) notes({kind, std::move(job), std::move(text), unreadable});
    }

    // The job's processes now: new threads counted, ended ones retired.
    void look() {
        const auto found = measure::job_processes(request.all_jobs ? std::string() : request.job, &unreadable);
        for (const auto& [job, pids] : found) {
            auto& state = jobs[job];
            const bool first_seen = !state.counters;
            if (first_seen) state.counters = std::make_unique<measure::JobCounters>(events.core_events);
            state.interval_threads = std::max(state.interval_threads, state.counters->live_threads());
            state.counters->update(pids);
            state.interval_threads = std::max(state.interval_threads, state.counters->live_threads());
            state.processes = pids.size();
            if (first_seen) {  // it counts from now: its first sample covers the next interval
                state.last = state.counters->totals();
                state.last_time = Clock::now();
            }
        }
        for (auto& [job, state] : jobs)
            if (!found.count(job)) {
                state.interval_threads = std::max(state.interval_threads, state.counters->live_threads());
                state.counters->update({});  // its threads ended: their last counts are kept
                state.processes = 0;
            }
        for (auto& [job, state] : jobs) {
            for (const auto& f : state.counters->failures())
                if (state.counters->live_threads() > 0 && said_failures.insert(f).second)  // some opened
                    note(CounterMonitorNote::Kind::counter_not_opened, job, f);
            if (state.counters->live_threads() == 0 && state.counters->threads_without_counters() > 0 &&
                state.last.empty()) {
                const auto probe = measure::probe_perf();
                throw std::runtime_error(fmt::format(
                    "no counter opened on the threads of job {} ({}){}", job,
                    state.counters->failures().empty() ? std::string("no reason given") : *state.counters->failures().begin(),
                    probe.hardware ? std::string()
                                   : fmt::format(".\nHardware counters: {}.\nTo fix: {}\nWithout counters, sample the "
                                                 "job's marked regions instead: roofline monitor --counts FILE --dir DIR",
                                                 probe.reason, probe.guidance)));
            }
        }
    }
};

CounterMonitor::CounterMonitor(CounterMonitorRequest request, CounterMonitorNotes notes) : state_(std::make_unique<State>()) {
    state_->request = std::move(request);
    state_->notes = std::move(notes);
    // A counter is a file descriptor, per event and thread: a 64-thread job and a dozen events
    // pass the usual soft limit of 1024. Up to the hard limit.
    if (rlimit files{}; ::getrlimit(RLIMIT_NOFILE, &files) == 0 && files.rlim_cur < files.rlim_max) {
        files.rlim_cur = files.rlim_max;
        ::setrlimit(RLIMIT_NOFILE, &files);
    }
    auto& events = state_->events;
    events = measure::cpu_event_set("", self_executable());
    for (const auto& w : events.warnings) state_->note(CounterMonitorNote::Kind::event_set_warning, "", w);
    if (events.core_events.empty())
        throw std::runtime_error(fmt::format("the event set {} has no event that can be opened per thread here",
                                             events.set.name));
    if (!state_->request.all_jobs)
        for (const auto& e : events.whole_cpu_events) {
            const std::string spec = e.pfm_name.substr(std::string(measure::kSysfsPrefix).size());
            try {
                state_->node_counters.open(e.alias, spec, measure::resolve_sysfs_event(spec));
            } catch (const std::exception&) {
                // optional by nature: the formulas fall back to core counters
            }
        }
}

CounterMonitor::~CounterMonitor() = default;

const std::string& CounterMonitor::event_set_name() const { return state_->events.set.name; }

void CounterMonitor::describe(Provenance& provenance) const {
    const auto& set = state_->events.set;
    provenance.engine = "monitor";
    provenance.runs = {"monitor"};
    provenance.options["counters"] = fmt::format("event set {} ({}), on every thread of the job's processes{}",
                                                 set.name, set.description,
                                                 state_->node_counters.empty() ? "" : "; whole-CPU counters for the node");
}

void CounterMonitor::start() {
    state_->look();
    state_->node_counters.enable();
    for (const auto& [alias, v] : state_->node_counters.read()) state_->node_last[alias] = v.value;
}

std::vector<JobSample> CounterMonitor::sample() {
    State& s = *state_;
    s.look();
    const auto now = Clock::now();
    std::map<std::string, double> node_now, node_delta;
    for (const auto& [alias, v] : s.node_counters.read()) {
        node_now[alias] = v.value;
        node_delta[alias] = v.value - s.node_last[alias];
    }
    s.node_last = node_now;
    if (s.jobs.empty() && !s.said_waiting) {
        s.note(CounterMonitorNote::Kind::no_process_yet, s.request.job, "");
        s.said_waiting = true;
    }
    std::vector<JobSample> samples;
    for (auto it = s.jobs.begin(); it != s.jobs.end();) {
        auto& [job, state] = *it;
        const auto totals = state.counters->totals();
        std::map<std::string, double> delta = node_delta;
        bool any = false;
        for (const auto& [alias, value] : totals) {
            delta[alias] = value - state.last[alias];
            any = any || delta[alias] > 0;
        }
        const double seconds = std::chrono::duration<double>(now - state.last_time).count();
        if (!any) {
            if (state.processes == 0) {  // ended, and its last counts are sampled: forget it
                it = s.jobs.erase(it);
                continue;
            }
            ++it;
            continue;
        }
        measure::RegionCounts counts;
        counts.events = delta;
        measure::apply_event_metrics(counts, measure::evaluate_metrics(s.events.set, delta));
        Point p;
        measure::apply_counts(p, counts);
        p.work_counted = !counts.flops.empty();
        p.seconds = seconds;
        p.threads = std::max(1, state.interval_threads);
        p.source = PointOrigin::monitor;  // a sample, as the marker path's (report/plot --job take these)
        p.details["sampled_with_counters"] = 1;
        p.details["counted_threads"] = state.interval_threads;
        p.details["threads_without_counters"] = state.counters->threads_without_counters();
        samples.push_back({job, std::move(p), unix_seconds(), state.processes});
        state.last = totals;
        state.last_time = now;
        state.interval_threads = state.counters->live_threads();
        ++it;
    }
    return samples;
}

} // namespace roofline::app
