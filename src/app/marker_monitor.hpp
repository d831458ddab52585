// The marker monitor (`roofline monitor --counts FILE`): a running job's processes publish
// snapshots of their regions' calls (marker library, ROOFLINE_MONITOR_DIR; PROTOCOL.md), and
// each interval's point is the calls made since the last sample times the per-call counts of
// an earlier instrument run. A request in; each interval's samples out; what is worth saying
// on the way (unreadable files, regions without counts, waiting for the job) through a
// callback, each once. Nothing printed, nothing stored: cli renders and keeps the samples.
#pragma once

#include "app/counter_monitor.hpp"
#include "core/monitor_sample.hpp"
#include "core/provenance.hpp"

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace roofline::app {

struct MarkerMonitorRequest {
    std::string job;                   // its id; empty with all_jobs
    bool all_jobs = false;             // every job that publishes there, each its own samples
    std::string dir;                   // the directory the job's programs publish to
    std::string counts;                // the points file of an instrument run: its per-call counts
    std::vector<std::string> regions;  // only these regions (empty: those never nested in another)
};

// Worth saying while the monitor runs; each said once.
struct MarkerMonitorNote {
    enum class Kind {
        unreadable_snapshot,     // `text`: a file of the directory that could not be read or parsed
        snapshot_without_job,    // a program published without ROOFLINE_JOB_ID or SLURM_JOB_ID: skipped
        nothing_published_yet,   // no process of the job has published yet; `other_jobs` snapshots of others
    };
    Kind kind;
    std::string text;
    std::size_t other_jobs = 0;
};
using MarkerMonitorNotes = std::function<void(const MarkerMonitorNote&)>;

struct MarkerJobSample {
    JobSample sample;                           // the point (work, bytes, seconds, threads), its end
    double calls = 0;                           // calls of the regions counted
    std::vector<std::string> regions_uncounted;  // first seen now with calls but no counts: not in the point
};

class MarkerMonitor {
public:
    // Reads the per-call counts (std::runtime_error naming the file when it has none), checks
    // the regions asked for are in it (RequestError listing those there are), and makes the
    // directory ready for the job's programs to publish to.
    MarkerMonitor(MarkerMonitorRequest request, MarkerMonitorNotes notes);

    // What is sampled, into a run's provenance.
    void describe(Provenance& provenance) const;
    // The first look: a process found now is a baseline (its past is not the first interval's).
    void start();
    // One interval: a sample per job whose processes published since the last look.
    std::vector<MarkerJobSample> sample();
    // Whether any process of the job has published since start().
    bool seen_any() const { return seen_any_; }

private:
    // A process by pid and start time (a pid can be reused).
    using ProcessKey = std::pair<long long, std::uint64_t>;
    struct JobDeltas {
        std::vector<ProcessDelta> deltas;
        std::uint64_t latest_ns = 0;  // the latest snapshot time among them
    };
    std::map<std::string, JobDeltas> take(const std::vector<ProcessSnapshot>& snapshots);

    MarkerMonitorRequest request_;
    MarkerMonitorNotes notes_;
    PerCallCounts counts_;
    std::set<std::string> only_;
    std::uint64_t start_ns_ = 0;
    std::map<ProcessKey, ProcessSnapshot> last_;
    std::set<ProcessKey> done_;  // finished and accounted for
    bool seen_any_ = false;
    std::set<std::string> said_uncounted_, said_problems_;
    bool said_no_job_ = false, said_waiting_ = false;
};

} // namespace roofline::app
