// The counter monitor (`roofline monitor` without --counts): every thread of a running job's
// processes (found by SLURM_JOB_ID / ROOFLINE_JOB_ID in their environment) counted with the
// perf engine's event set for this CPU, and one point per job and interval from the counts'
// differences. A request in; each interval's samples out; what is worth saying on the way
// (warnings, waiting for the job) through a callback. Nothing printed, nothing stored: cli
// renders and keeps the samples.
#pragma once

#include "core/provenance.hpp"
#include "core/roofline.hpp"

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace roofline::app {

struct CounterMonitorRequest {
    std::string job;        // its id; empty with all_jobs
    bool all_jobs = false;  // every job on the node, each its own samples (no whole-CPU counters then)
};

// Worth saying while the monitor runs.
struct CounterMonitorNote {
    enum class Kind {
        event_set_warning,    // `text`: an event this libpfm cannot encode
        counter_not_opened,   // `job`, `text`: a counter failed on one of its threads (others opened)
        no_process_yet,       // no process of the job here yet; `unreadable` other users' processes
    };
    Kind kind;
    std::string job;
    std::string text;
    int unreadable = 0;
};
using CounterMonitorNotes = std::function<void(const CounterMonitorNote&)>;

// The wall clock a sample's end is given in: seconds since the epoch.
double unix_seconds();

// One job's interval: its FLOPs and bytes, seconds, the threads counted (source monitor).
struct JobSample {
    std::string job;
    Point point;
    double end_unix = 0;         // when the interval ended (seconds since the epoch)
    std::size_t processes = 0;   // the job's processes counted in it
};

class CounterMonitor {
public:
    // Opens the event set (std::runtime_error when no event can be opened per thread here) and,
    // for one job, the node's whole-CPU counters where they open; raises the open-files limit
    // to the hard one (a counter is a file descriptor per event and thread).
    CounterMonitor(CounterMonitorRequest request, CounterMonitorNotes notes);
    ~CounterMonitor();
    CounterMonitor(const CounterMonitor&) = delete;
    CounterMonitor& operator=(const CounterMonitor&) = delete;

    // The event set's name ("zen4"), and what is counted, into a run's provenance.
    const std::string& event_set_name() const;
    void describe(Provenance& provenance) const;

    // The first look: the job's threads found now count from now; the node's counters start.
    // std::runtime_error when no counter opens on any thread of a job (with why, and what to do).
    void start();
    // One interval: a sample per job whose counts moved since the last one (a job whose
    // processes ended is forgotten after its last counts are sampled).
    std::vector<JobSample> sample();

private:
    struct State;
    std::unique_ptr<State> state_;
};

} // namespace roofline::app
