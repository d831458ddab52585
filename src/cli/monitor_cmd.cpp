// `roofline monitor`: a node-level sampler for a running job, one point per interval. With
// hardware counters on the job's threads (app/counter_monitor), or, without counters, from
// the snapshots the job's processes publish (app/marker_monitor: marker library,
// ROOFLINE_MONITOR_DIR; PROTOCOL.md): the calls made since the last sample times the
// per-call counts of an earlier instrument run. Here: the options, the samples said and
// stored, the interval's clock.
#include "app/counter_monitor.hpp"
#include "app/marker_monitor.hpp"
#include "cli/commands.hpp"
#include "cli/common_options.hpp"
#include "cli/invocation.hpp"
#include "cli/messages.hpp"
#include "cli/stop_signal.hpp"
#include "cli/usage_error.hpp"
#include "cli/value_check.hpp"
#include "core/kept_tally.hpp"
#include "io/machine_json.hpp"
#include "io/monitor_spool.hpp"
#include "io/points_json.hpp"
#include "io/results_store.hpp"
#include "render/job_report.hpp"
#include "render/kept_tally_text.hpp"
#include "render/number_format.hpp"
#include "render/text_escape.hpp"
#include "topo/environment.hpp"

#include <fmt/format.h>

#include <unistd.h>

#include <cctype>
#include <chrono>
#include <cstdlib>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <thread>
#include <utility>
#include <vector>

namespace roofline::cli {
namespace {

struct MonitorArgs {
    std::string job;
    bool all_jobs = false;
    double interval = 10;
    std::string counts;
    std::string dir;
    std::vector<std::string> regions;
    std::string db;
    bool once = false;
    std::optional<double> duration;
    bool quiet = false;
};

using Clock = std::chrono::steady_clock;

std::string iso_utc(double unix_s) {
    const std::time_t t = static_cast<std::time_t>(unix_s);
    std::tm tm{};
    gmtime_r(&t, &tm);
    char buf[32];
    std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
    return buf;
}

// Stores one sample of a job as a point in the set "job ID NODE" and says so. A sample the
// store refuses (NaN, infinite or negative values: a wrong event formula) or fails to take (a
// full disk, a lock) is appended to the spool file (io/monitor_spool.hpp) and counted as such:
// the summary line reads the tally, never the number of samples taken.
struct SampleSink {
    const MonitorArgs& args;
    std::string node;
    double started_unix = 0;
    Provenance provenance;
    ResultsStore& store;
    std::map<std::string, KeptTally> tally;  // per job
    std::map<std::string, double> first_starts;  // per job: where its samples' times count from
    MonitorSpool spool{monitor_spool_dirs(), fmt::format("monitor-{}-{}-{}.jsonl", file_safe(node),
                                                          compact_utc(started_unix), ::getpid())};

    static std::string file_safe(const std::string& s) {
        std::string out;
        for (char c : s) out += std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '.' ? c : '_';
        return out.empty() ? "node" : out;
    }
    static std::string compact_utc(double unix_s) {
        std::string t = iso_utc(unix_s);  // 2026-11-27T08:51:00Z -> 20261127T085100Z
        std::erase_if(t, [](char c) { return c == '-' || c == ':'; });
        return t;
    }
    std::string set_name(const std::string& job) const { return fmt::format("job {} {}", job, node); }

    // Keeps a sample the store did not take; false when not even the spool could.
    bool keep(const std::string& job, const nlohmann::json& document, const char* outcome, const std::string& why) {
        const nlohmann::json line = {{"schema", "roofline.monitor-spool/1"}, {"set", set_name(job)}, {"job", job},
                                     {"outcome", outcome}, {"why", why}, {"points", document}};
        const bool first = spool.path().empty();
        try {
            spool.append(line);
        } catch (const std::exception& e) {
            // The journal of a node service keeps stderr: the sample itself, as a last resort.
            print_stderr("roofline monitor: error: {}; the sample: {}\n", terminal_text(e.what()),
                         terminal_text(line.dump(-1, ' ', true, nlohmann::json::error_handler_t::replace)));
            return false;
        }
        if (first)
            print_stderr("roofline monitor: samples not in the store are kept in {} (one JSON line each)\n",
                         terminal_text(spool.path()));
        return true;
    }

    // `p`: work, bytes, seconds and threads of the interval that ended at `end_unix`; `what`:
    // what the sample was made of, for the progress line.
    void save(const std::string& job, Point p, double end_unix, const std::string& what) {
        const double start_unix = end_unix - p.seconds;
        p.name = fmt::format("{} {}", node, iso_utc(end_unix));
        p.series = node;
        // From the job's first sample's start, as report --job and plot --job tell it.
        const double first_start = first_starts.emplace(job, start_unix).first->second;
        p.label = sample_time_label(end_unix - first_start, args.interval);
        p.details["monitor_start_unix"] = start_unix;
        p.details["monitor_end_unix"] = end_unix;
        p.details["monitor_interval"] = args.interval;  // how finely the report labels its times
        Provenance prov = provenance;
        prov.options["job"] = job;
        prov.options["interval_start"] = iso_utc(start_unix);
        prov.options["interval_end"] = iso_utc(end_unix);
        KeptTally& kept = tally[job];
        const auto document = points_to_json({p}, &prov);
        const char* outcome = "stored";
        try {
            points_from_json(document, "the sample");  // what the store would refuse
            try {
                store.save_points(set_name(job), {p}, std::nullopt, &prov);
                kept.add_stored();
            } catch (const std::exception& e) {
                outcome = "not stored";
                print_stderr("roofline monitor: error: a sample of job {} not stored: {}\n", terminal_text(job),
                             terminal_text(e.what()));
                kept.add_unstored(e.what(), keep(job, document, outcome, e.what()));
            }
        } catch (const SchemaError& e) {
            outcome = "refused";
            print_stderr("roofline monitor: error: a sample of job {} refused: {}\n", terminal_text(job),
                         terminal_text(e.what()));
            kept.add_refused(e.what(), keep(job, document, outcome, e.what()));
        }
        if (!args.quiet)
            print_stderr("roofline monitor: {}{} {:>9} {}  {}  {} threads{}\n",
                         args.all_jobs ? "job " + terminal_text(job) + " " : "", p.label,
                         p.work_counted ? format_number(performance(p)) : "-", rate_unit(p.work_unit), what,
                         p.threads, std::string_view(outcome) == "stored" ? "" : fmt::format("  ({})", outcome));
    }
    bool any_samples() const { return !tally.empty(); }
    // The last lines: per job what was stored, refused, not stored, and where those are. Said
    // under --quiet too when a sample is not in the store. Exit 1 when any is not.
    int finish() const {
        bool all = true;
        for (const auto& [job, kept] : tally) {
            all = all && kept.all_stored();
            if (args.quiet && kept.all_stored()) continue;
            print_stderr("roofline monitor: {}\n",
                         terminal_text(kept_tally_text(kept, "sample", " of job " + job,
                                                       fmt::format(" in {} as '{}'", store.path(), set_name(job)),
                                                       spool.path())));
        }
        return all ? kExitOk : kExitFailure;
    }
};

// Calls `sample` every --interval from `started` until --duration, --once or a signal; a
// signal's last, partial interval is sampled too.
template <typename Sample>
void every_interval(const MonitorArgs& args, const StopSignal& stop, Clock::time_point started, Sample&& sample) {
    const auto interval = std::chrono::duration<double>(args.interval);
    auto next = started + std::chrono::duration_cast<Clock::duration>(interval);
    // Without --duration: never (time_point::max, so no optional to test on every wake).
    const Clock::time_point deadline =
        args.duration ? started + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(*args.duration))
                      : Clock::time_point::max();
    for (;;) {
        const auto wake = std::min(next, deadline);
        while (!stop.stopped() && Clock::now() < wake)
            std::this_thread::sleep_for(std::min<Clock::duration>(wake - Clock::now(), std::chrono::milliseconds(250)));  // a stop is seen within 250 ms
        sample();
        if (stop.stopped() || args.once || Clock::now() >= deadline) break;
        next += std::chrono::duration_cast<Clock::duration>(interval);
    }
}

// Without --counts: hardware counters on every thread of the job's processes
// (app/counter_monitor); one point per interval, stored by the sink.
int run_counter_monitor(const MonitorArgs& args) {
    if (!args.dir.empty() || !args.regions.empty())
        throw UsageError("--dir and --region go with --counts: marker snapshots need the per-call counts of an "
                         "instrument run (--counts FILE from 'roofline measure --engine instrument -o FILE -- ./app'); "
                         "to count the job's threads with hardware counters instead, give neither (and unset "
                         "ROOFLINE_MONITOR_DIR, which sets --dir)");
    const std::string node = host_name();
    const std::string jobs_text = args.all_jobs ? "every job" : "job " + args.job;
    using Note = app::CounterMonitorNote;
    app::CounterMonitor monitor({args.job, args.all_jobs}, [&](const Note& n) {
        if (n.kind == Note::Kind::event_set_warning)
            print_stderr("roofline monitor: warning: {}\n", terminal_text(n.text));
        else if (n.kind == Note::Kind::counter_not_opened)
            print_stderr("roofline monitor: warning: a counter did not open on a thread of job {}: {}\n",
                         terminal_text(n.job), terminal_text(n.text));
        else if (!args.quiet)
            print_stderr("roofline monitor: no process of {} on this node yet (processes are found by SLURM_JOB_ID or "
                         "ROOFLINE_JOB_ID in their environment{})\n",
                         terminal_text(jobs_text),
                         n.unreadable > 0 ? fmt::format("; {} other users' processes cannot be looked into: run the "
                                                        "monitor as root or as the job's user", n.unreadable)
                                          : std::string());
    });
    check_store_writable(args.db);
    auto store = ResultsStore::open_db_option(args.db);
    Provenance provenance = run_provenance(invocation_argv(), "monitor");
    monitor.describe(provenance);
    provenance.options["node"] = node;
    provenance.options["interval"] = fmt::format("{:g}", args.interval);

    StopSignal stop;
    const auto started = Clock::now();
    SampleSink sink{args, node, app::unix_seconds(), provenance, *store, {}, {}};
    monitor.start();
    if (!args.quiet)
        print_stderr("roofline monitor: {} on {}: hardware counters ({}) on every thread, every {} (Ctrl-C or "
                     "SIGTERM stops)\n",
                     terminal_text(jobs_text), terminal_text(node), monitor.event_set_name(), format_seconds(args.interval));
    every_interval(args, stop, started, [&] {
        for (auto& s : monitor.sample())
            sink.save(s.job, std::move(s.point), s.end_unix, fmt::format("{} process(es)", s.processes));
    });
    if (!args.quiet && !sink.any_samples())
        print_stderr("roofline monitor: no samples of {} (no process of it counted on this node)\n",
                     terminal_text(jobs_text));
    return sink.finish();
}

// With --counts: the snapshots the job's processes publish (app/marker_monitor); one point per
// job and interval, stored by the sink.
int run_marker_monitor(const MonitorArgs& args) {
    const std::string jobs_text = args.all_jobs ? "every job" : "job " + args.job;
    using Note = app::MarkerMonitorNote;
    app::MarkerMonitor monitor({args.job, args.all_jobs, args.dir, args.counts, args.regions}, [&](const Note& n) {
        if (n.kind == Note::Kind::unreadable_snapshot)
            print_stderr("roofline monitor: warning: {}\n", terminal_text(n.text));
        else if (n.kind == Note::Kind::snapshot_without_job)
            print_stderr("roofline monitor: warning: snapshots without a job id in {} are skipped (run the program "
                         "with ROOFLINE_JOB_ID or SLURM_JOB_ID set)\n", terminal_text(args.dir));
        else if (!args.quiet)
            print_stderr("roofline monitor: no process of {} has published to {} yet{}\n", terminal_text(jobs_text),
                         terminal_text(args.dir),
                         n.other_jobs ? fmt::format(" ({} of other jobs)",
                                                    count_of(static_cast<long long>(n.other_jobs), "snapshot"))
                                      : "");
    });
    check_store_writable(args.db);
    auto store = ResultsStore::open_db_option(args.db);
    const std::string node = host_name();
    Provenance provenance = run_provenance(invocation_argv(), "monitor");
    monitor.describe(provenance);
    provenance.options["node"] = node;
    provenance.options["interval"] = fmt::format("{:g}", args.interval);

    StopSignal stop;
    const auto started = Clock::now();
    const double started_unix = app::unix_seconds();
    monitor.start();
    if (!args.quiet)
        print_stderr("roofline monitor: {} on {}: sampling {} every {} (Ctrl-C or SIGTERM stops)\n",
                     terminal_text(jobs_text), terminal_text(node), terminal_text(args.dir),
                     format_seconds(args.interval));
    SampleSink sink{args, node, started_unix, provenance, *store, {}, {}};
    every_interval(args, stop, started, [&] {
        for (auto& s : monitor.sample()) {
            for (const auto& region : s.regions_uncounted)
                print_stderr("roofline monitor: warning: region '{}' is not in {}: its work is not counted\n",
                             terminal_text(region), args.counts);
            sink.save(s.sample.job, std::move(s.sample.point), s.sample.end_unix,
                      fmt::format("{} calls  {} process(es)", format_count(s.calls), s.sample.processes));
        }
    });
    if (!args.quiet && !sink.any_samples())
        print_stderr("roofline monitor: no samples of {} (nothing published to {})\n", terminal_text(jobs_text),
                     terminal_text(args.dir));
    return sink.finish();
}

int run_monitor(const MonitorArgs& a) {
    MonitorArgs args = a;
    if (args.all_jobs && !args.job.empty()) throw UsageError("--all-jobs samples every job: no --job with it");
    if (args.job.empty() && !args.all_jobs)
        if (const char* slurm = std::getenv("SLURM_JOB_ID"); slurm && *slurm) args.job = slurm;
    if (args.job.empty() && !args.all_jobs)
        throw UsageError("no job id: pass --job ID (SLURM_JOB_ID is not set), or --all-jobs");
    if (args.counts.empty()) return run_counter_monitor(args);
    if (args.dir.empty())
        if (const char* dir = std::getenv("ROOFLINE_MONITOR_DIR"); dir && *dir) args.dir = dir;
    if (args.dir.empty())
        throw UsageError("no snapshot directory: pass --dir DIR (or set ROOFLINE_MONITOR_DIR), the directory the job's "
                         "programs publish to (they run with ROOFLINE_MONITOR_DIR=DIR)");
    return run_marker_monitor(args);
}

} // namespace

void add_monitor_command(CLI::App& app, int& exit_code) {
    auto args = std::make_shared<MonitorArgs>();
    auto* cmd = add_command(app, "monitor", "Sample a running job's FLOPs and bytes on this node into the store");
    cmd->description(
        "Samples a running job every --interval seconds and stores one point per interval in the set\n"
        "'job ID NODE'; 'roofline plot --job ID' and 'roofline report --job ID' show them. Two ways:\n"
        "  hardware counters (no --counts): every thread of the job's processes, found by SLURM_JOB_ID or\n"
        "    ROOFLINE_JOB_ID in their environment, is counted with the perf engine's event file for this\n"
        "    CPU (FLOPs; DRAM bytes from memory-controller counters where they open, else last-level\n"
        "    misses). Needs counters: a PMU, and perf_event_paranoid <= 2 for the same user's processes\n"
        "    (root for other users'). A thread is counted from when it is first seen.\n"
        "  marked regions (--counts FILE --dir DIR): reads the snapshots that the job's programs publish\n"
        "    (linked to libroofline_marker, run with ROOFLINE_MONITOR_DIR=DIR) and turns the calls of their\n"
        "    regions into FLOPs and bytes with the per-call counts of an earlier instrument run. No\n"
        "    counters needed.\n"
        "SIGINT/SIGTERM store the last, partial interval and stop.\n"
        "A sample the store refuses (NaN, infinite or negative values: an event formula gone wrong) or\n"
        "cannot take (a full disk, a lock) is said at once and appended, one JSON line each, to a spool file\n"
        "(monitor-NODE-TIME-PID.jsonl in $STATE_DIRECTORY, else $XDG_STATE_HOME/roofline, else\n"
        "~/.local/state/roofline; $TMPDIR or /tmp when that cannot be written); sampling goes on. The last\n"
        "lines say per job how many samples were stored, refused and not stored, and where those are, under\n"
        "--quiet too.\n"
        "Exit status: 0 when every sample taken is in the store; 1 when any is not (refused or not stored:\n"
        "a node service's unit then shows as failed, and the spool file has them) or the monitor cannot\n"
        "start; 2 for a usage error.");
    cmd->add_option("--job", args->job, "The job's id (default: $SLURM_JOB_ID); programs tag their snapshots with "
                                        "ROOFLINE_JOB_ID or SLURM_JOB_ID");
    cmd->add_flag("--all-jobs", args->all_jobs,
                  "Sample every job that publishes to --dir, each into its own set (a node service)");
    // Ranges checked as parsed, so a configured value is too (config show marks it INVALID).
    cmd->add_option("--interval", args->interval, "Seconds between samples (0.1 to 86400)")
        ->check(number_check([](double seconds, const std::string& text) {
            return seconds >= 0.1 && seconds <= 86400 ? std::string()
                                                       : fmt::format("must be 0.1 to 86400 seconds (got {})", text);
        }))
        ->capture_default_str();
    cmd->add_option("--counts", args->counts,
                    "Points file of 'roofline measure --engine instrument' on the same program: FLOPs and bytes "
                    "per call of each region (sample marked regions instead of hardware counters)")
        // '' sampled hardware counters instead, unsaid.
        ->check(name_not_empty("give the points file, or leave --counts out to sample hardware counters"));
    cmd->add_option("--dir", args->dir,
                    "With --counts: where the programs publish snapshots (default: $ROOFLINE_MONITOR_DIR)")
        ->check(name_not_empty("give the directory, or leave --dir out for $ROOFLINE_MONITOR_DIR"));
    cmd->add_option("--region", args->regions,
                    "Count only this region (repeatable; default: every region not nested in another)");
    add_db_option(cmd, args->db);
    auto* once = cmd->add_flag("--once", args->once, "Take one sample (one interval) and exit");
    cmd->add_option("--duration", args->duration, "Stop after this many seconds")
        ->check(number_check([](double seconds, const std::string& text) {
            return seconds > 0 && seconds <= 1e7
                       ? std::string()
                       : fmt::format("must be a positive number of seconds, at most 1e7 (got {})", text);
        }))
        ->excludes(once);
    add_quiet_flag(cmd, args->quiet);
    cmd->footer("Examples:\n"
                "  roofline monitor --job $SLURM_JOB_ID --interval 10 &           hardware counters\n"
                "  roofline measure --engine instrument -o counts.json -- ./app   per-call counts, once\n"
                "  ROOFLINE_MONITOR_DIR=/tmp/rl-$SLURM_JOB_ID ./app &\n"
                "  roofline monitor --counts counts.json --dir /tmp/rl-$SLURM_JOB_ID --interval 10\n"
                "  roofline report --job $SLURM_JOB_ID");
    cmd->callback([args, &exit_code] { exit_code = run_monitor(*args); });
}

} // namespace roofline::cli
