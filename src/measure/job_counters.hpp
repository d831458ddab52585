// Hardware counters on a running job's threads, for `roofline monitor` without markers: the
// job's processes are found by their environment (SLURM_JOB_ID or ROOFLINE_JOB_ID, as the
// marker library tags its snapshots), and every thread of theirs gets counters of its own
// (ThreadCounters: no inherit, so the threads it starts are not counted twice), opened when
// the thread is first seen. A thread that ended is read a last time and closed, its counts kept.
// What a thread did before it was first seen is not counted: up to one interval of a thread
// that starts between two looks.
#pragma once

#include "measure/perf_events.hpp"

#include <map>
#include <memory>
#include <set>
#include <string>
#include <sys/types.h>
#include <vector>

namespace roofline::measure {

// The job id in a process environment block ("K=V\0K=V\0..."): ROOFLINE_JOB_ID, else
// SLURM_JOB_ID; "" when neither is set. Pure.
std::string job_of_environment(const std::string& environ_block);

// Every process whose environment names a job, by job (`only`, when not empty: that job only),
// the calling process left out. Processes whose environment cannot be read (another user's,
// without root) are not seen: `unreadable`, when given, gets how many there were.
std::map<std::string, std::vector<pid_t>> job_processes(const std::string& only, int* unreadable = nullptr);

class JobCounters {
public:
    explicit JobCounters(std::vector<EncodedEvent> events) : events_(std::move(events)) {}
    // Opens counters on the threads of `pids` not counted yet, and retires those that ended.
    void update(const std::vector<pid_t>& pids);
    // Per alias, since the first look: the live threads' counts and the ended ones'.
    std::map<std::string, double> totals() const;
    int live_threads() const { return static_cast<int>(live_.size()); }
    // Why an event did not open on a thread, each reason once.
    const std::set<std::string>& failures() const { return failures_; }
    // Threads on which no event opened (counted as not seen).
    int threads_without_counters() const { return unopened_; }

private:
    struct ThreadKey {
        pid_t tid;
        unsigned long long start;  // the thread's start time (clock ticks after boot): a tid is reused
        bool operator<(const ThreadKey& o) const { return tid != o.tid ? tid < o.tid : start < o.start; }
    };
    std::vector<EncodedEvent> events_;
    std::map<ThreadKey, std::unique_ptr<ThreadCounters>> live_;
    std::set<ThreadKey> refused_;  // no event opened: not tried again
    std::map<std::string, double> retired_;
    std::set<std::string> failures_;
    int unopened_ = 0;
};

} // namespace roofline::measure
