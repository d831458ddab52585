// `roofline measure [options] -- COMMAND ARGS...`: run a command, count its
// work per region with an engine (perf, instrument, time), time it natively,
// merge both into points, store them and place them on the machine's roofline.
#include "app/measure.hpp"
#include "app/measure_plan.hpp"
#include "cli/commands.hpp"
#include "cli/invocation.hpp"
#include "cli/messages.hpp"
#include "cli/common_options.hpp"
#include "cli/evex_guard.hpp"
#include "cli/gpu_measure.hpp"
#include "cli/measure_job.hpp"
#include "cli/measure_loops.hpp"
#include "cli/measure_repeat.hpp"
#include "cli/stored_source.hpp"
#include "cli/usage_error.hpp"
#include "cli/value_check.hpp"
#include "core/dirty_at_end.hpp"
#include "core/rep_string_stores.hpp"
#include "core/math_library_flops.hpp"
#include "core/thread_imbalance.hpp"
#include "core/llc_occupancy.hpp"
#include "core/measured_elsewhere.hpp"
#include "core/message_name.hpp"
#include "core/gpu_kernel_points.hpp"
#include "core/roofline.hpp"
#include "io/machine_json.hpp"
#include "io/machine_spec_yaml.hpp"
#include "io/results_store.hpp"
#include "io/text_file.hpp"
#include "measure/child_process.hpp"
#include "measure/engine.hpp"
#include "measure/engine_registry.hpp"
#include "measure/merge.hpp"
#include "measure/output_tee.hpp"
#include "measure/mpi_rank.hpp"
#include "measure/call_timer.hpp"
#include "measure/function_list.hpp"
#include "measure/function_regions.hpp"
#include "measure/sampling_profiler.hpp"
#include "render/evex_text.hpp"
#include "render/measure_tables.hpp"
#include "render/text_escape.hpp"
#include "render/timing_text.hpp"
#include "topo/cpu_features.hpp"
#include "topo/environment.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <csignal>
#include <cstdio>
#include <system_error>
#include <cstdlib>
#include <cmath>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <unistd.h>

namespace roofline::cli {
namespace {

struct MeasureArgs {
    std::vector<std::string> command;
    std::string output;
    std::string engine = "auto";
    std::string cache_sim = "on";  // instrument engine: simulate the caches for bytes below L1
    std::string cache_model;       // --cache-model FILE: simulate that machine's caches instead
    std::string ncu_csv;           // --ncu-csv FILE: CUDA kernels' points from a recorded ncu CSV
    bool offload = false;          // --offload: the whole-offload point from a run under CUPTI
    std::vector<std::string> offload_summary;  // --offload-summary FILE...: that run's summaries
    bool functions = false;
    bool loops = false;  // --loops: a point per hot loop (issue 36)
    std::vector<std::string> loops_libraries;  // --loops-library
    std::vector<std::string> region_functions;
    std::string region_scope = "process";
    long long max_timed_calls = 10000;
    double min_share = 1;  // percent
    std::string times;    // --times FILE: region times from an earlier run, no native run
    std::string counts_from;  // --counts-from PROGRAM: counts from it under Valgrind, time from the command
    double rank_wait = 120;  // MPI: how long rank 0 waits for the other ranks' points
    double sample_period_us = 0;  // 0: chosen from the native run's length
    std::string machine;  // empty: the latest stored machine if there is one
    std::string db;
    bool no_store = false;
    bool quiet = false;
    RepeatArgs repeat;  // --repeat, --warmup
};

// The options as app's planner takes them.
app::MeasureOptions cpu_options(const MeasureArgs& args) {
    app::MeasureOptions o;
    o.command = args.command;
    o.output = args.output;
    o.db = args.db;
    o.no_store = args.no_store;
    o.functions = args.functions;
    o.loops = args.loops;
    o.loops_libraries = args.loops_libraries;
    o.region_functions = args.region_functions;
    o.region_scope = args.region_scope;
    o.cache_sim = args.cache_sim == "on";
    o.cache_model = args.cache_model;
    o.counts_from = args.counts_from;
    o.times = args.times;
    o.gpu_options = args.offload || !args.offload_summary.empty();
    o.max_timed_calls = args.max_timed_calls;
    o.sample_period_us = args.sample_period_us;
    o.repeat = args.repeat;
    return o;
}

// What measure says on stderr as it goes: notes (left out under -q, and by every rank but 0)
// and warnings (always).
struct Speaker {
    bool quiet = false;
    void note(const std::string& text) const {
        if (!quiet) print_stderr("roofline: {}\n", text);
    }
    void warning(const std::string& text) const { print_stderr("roofline: warning: {}\n", text); }
};

// The machine to compare with: --machine, else the latest complete stored one if any.
// `notes`: which one and what it lacks, said with the table of points they concern.
std::optional<MachineFile> load_machine_for(const MeasureArgs& args, StoreAccess& access,
                                            std::vector<std::string>& notes) {
    std::optional<JudgingMachine> judging;
    if (!args.machine.empty()) {
        judging = load_judging_machine(parse_stored_source(args.machine, "--machine"), access,
                                       "run 'roofline bench' to measure this machine");
    } else {
        try {
            // This host's latest model, in a store other machines share too.
            // (as run_provenance names them, which measured_elsewhere compares)
            judging = load_judging_machine(parse_stored_source(kStored, "--machine"), access, "",
                                           ThisMachine{node_name(), detect_cpu_features().brand});
        } catch (const std::exception&) {
            return std::nullopt;  // nothing stored: the summary has no roofline columns
        }
    }
    notes = std::move(judging->notes);
    // Which model judged the points is said every time (a note above says so when one was
    // skipped or is incomplete): the roofline columns mean nothing without it.
    if (notes.empty()) {
        const auto& model = judging->file.model;
        notes.push_back(fmt::format("the points are judged on {} ({}{}{})", judging->display, machine_label(model),
                                    model.environment.timestamp.empty() ? "" : ", measured " +
                                                                                  model.environment.timestamp,
                                    args.machine.empty() ? "; --machine chooses another" : ""));
    }
    return std::move(judging->file);
}

// --cache-model: the machine file or stored model whose caches the instrument engine simulates.
// Its read errors stop here, before anything runs.
void simulate_cache_model(app::MeasurePlanner& planner, const MeasureArgs& args) {
    StoreAccess cache_access(args.db);
    const auto source = parse_stored_source(args.cache_model, "--cache-model");
    const auto file = load_machine(source, cache_access, "run 'roofline bench' to store this machine's model");
    planner.simulate_model_caches(file.model, source.display());
}

// The store the points go to; null with --no-store and in a job (whose rank 0 opens its own in
// finish_rank). Checked writable (its directory and write lock too, within seconds) before the runs.
std::unique_ptr<ResultsStore> open_store(const MeasureArgs& args, const std::optional<measure::MpiRank>& mpi) {
    if (args.no_store || (mpi && mpi->rank != 0)) return nullptr;
    check_store_writable(args.db);
    return mpi ? nullptr : ResultsStore::open_db_option(args.db);
}

using Sampling = std::optional<measure::SamplingResult>;

// Sampled self CPU time of a function (--functions); nullopt without sampling.
std::optional<double> cpu_seconds(const Sampling& sampling, const std::string& name) {
    if (!sampling) return std::nullopt;
    const auto it = sampling->functions.find(name);
    return it == sampling->functions.end() ? 0.0 : it->second.seconds;
}

// What the cache simulation says reached DRAM, when it ran.
std::optional<double> dram_bytes_of(const measure::RegionCounts& c) {
    const auto it = c.bytes_by_level.find("DRAM");
    return it == c.bytes_by_level.end() ? std::nullopt : std::optional<double>(it->second);
}

void print_functions(const std::vector<measure::RegionCounts>& shown, const std::vector<measure::RegionCounts>& functions,
                     double min_share, const Sampling& sampling) {
    const std::size_t all = functions.size();
    std::vector<FunctionRow> rows;
    for (const auto& f : shown)
        rows.push_back({f.name, std::nullopt, f.total_flops(), f.bytes_loaded + f.bytes_stored,
                        cpu_seconds(sampling, f.name), "", dram_bytes_of(f)});
    fmt::print("\n{}", render_function_table(
                           fmt::format("functions with at least {}% of the FLOPs, bytes or CPU time ({} of {}; "
                                       "--min-share; the marker library's own left out), by FLOPs, then bytes:\n"
                                       "  exclusive counts from the instrument engine\n"
                                       "  CPU s: self CPU time from sampling a native run, summed over threads{}",
                                       min_share, shown.size(), all, sampling ? "" : ", unavailable"),
                           "function", "CPU s", rows));
    // What the table holds and leaves out: when the work is spread thin it lists little of it.
    const auto share = measure::function_list_share(functions, shown, sampling ? &*sampling : nullptr, min_share / 100);
    fmt::print("{}", render_listed_share(listed_share_line(share, "function")));
}

void print_function_regions(const std::vector<app::FunctionRegion>& regions) {
    std::vector<FunctionRow> rows;
    for (const auto& f : regions)
        rows.push_back({f.counts->name, f.counts->calls, f.counts->total_flops(),
                        f.counts->bytes_loaded + f.counts->bytes_stored, f.time.seconds, f.time.note,
                        dram_bytes_of(*f.counts)});
    fmt::print("\n{}", render_function_table("functions measured as regions (counts from the instrument engine, "
                                             "inclusive of callees and of other threads while a call is open):",
                                             "region", "time s", rows));
}

// What was run, where and how: stored with the points.
Provenance provenance_of(const MeasureArgs& args, measure::EngineKind engine, bool timed_calls, bool sampled) {
    const bool native = args.times.empty();
    Provenance p = run_provenance(args.command, "measure");
    p.engine = measure::engine_name(engine);
    if (native) p.runs = {"native"};
    if (measure::engine_descriptor(engine).can(measure::EngineCapability::counts)) p.runs.push_back(p.engine);
    if (!native) p.options["times_from"] = args.times;
    if (timed_calls) p.runs.push_back("call-timing");
    if (sampled) p.runs.push_back("sampling");
    p.options["region_scope"] = args.region_scope;
    if (timed_calls) p.options["max_timed_calls"] = std::to_string(args.max_timed_calls);
    return p;
}

// --counts-from and the AVX-512 check, said with the run's notes (issue 35).
template <class Note>
void report_evex_check(const std::optional<EvexCheck>& evex, const measure::MeasureResult& result,
                       const MeasureArgs& args, const Note& note) {
    if (evex) {
        for (const auto& n : evex->notes) note(n);
        for (const auto& w : evex->warnings) print_stderr("roofline: warning: {}\n", w);
    }
    if (args.counts_from.empty()) return;
    note(fmt::format("counts from {} (--counts-from, under the Valgrind tool), time from {} (native run): each "
                     "point's FLOPs and bytes are the other build's, its seconds this program's (where the builds' loads and "
                     "stores differ, e.g. register spills of a build with 16 vector registers, so do the bytes)",
                     args.counts_from, args.command.front()));
    if (result.output_comparison && !result.output_comparison->same)
        print_stderr("roofline: warning: {}\n",
                     render_output_difference(*result.output_comparison, args.command.front(), args.counts_from));
    else if (result.output_comparison)
        note(fmt::format("both programs printed the same standard output ({} bytes)", result.output_comparison->a_bytes));
}

// The ISA each run executed, --counts-from's program and what the outputs' comparison found.
void record_evex_check(const std::optional<EvexCheck>& evex, const measure::MeasureResult& result,
                       const MeasureArgs& args, Provenance& provenance) {
    const auto& engine = measure::engine_descriptor(result.engine);
    // The AVX-512 check's findings concern a counting run that cannot count AVX-512 code (Valgrind's).
    if (evex && engine.can(measure::EngineCapability::counting_run) && !engine.can(measure::EngineCapability::counts_avx512))
        for (const auto& [key, value] : evex->provenance) provenance.options[key] = value;
    // Every CPU engine's timed run executes on this CPU; the perf engine counts that very run.
    if (!provenance.options.contains("isa_timed") && args.times.empty())
        provenance.options["isa_timed"] = render_timed_isa(detect_cpu_features().names());
    if (engine.can(measure::EngineCapability::counts_avx512))
        provenance.options["isa_counted"] = "the timed run's: the perf engine counts the native run itself";
    if (args.counts_from.empty()) return;
    provenance.options["counted_from"] = args.counts_from;
    if (result.output_comparison)
        provenance.options["outputs_compared"] =
            result.output_comparison->same
                ? "same"
                : render_output_difference(*result.output_comparison, args.command.front(), args.counts_from);
}

// --engine ncu / --ncu-csv: CUDA kernels from Nsight Compute; the CPU engines' options do not apply.
int run_gpu_measure(const MeasureArgs& args) {
    if (args.functions || !args.region_functions.empty() || !args.times.empty() || !args.cache_model.empty() ||
        !args.counts_from.empty())
        throw UsageError("--functions, --region-function, --times, --cache-model and --counts-from are for the CPU "
                         "engines; CUDA kernels are measured per kernel by ncu (--engine ncu)");
    if (args.repeat.cold)
        throw UsageError("--cold empties the caches before the CPU engines' native timed runs; ncu times each "
                         "kernel itself and flushes the caches before each of its passes (ncu --cache-control all, "
                         "its default)");
    if (args.repeat.repeat || args.repeat.warmup)
        throw UsageError("--repeat and --warmup repeat the CPU engines' native timed runs; ncu times each kernel "
                         "itself, replaying it once per pass of its metrics (each kernel's duration is one launch's)");
    if (!args.ncu_csv.empty() && !args.command.empty())
        throw UsageError("--ncu-csv reads a recorded run: give no command (or drop --ncu-csv to run ncu on it)");
    if (args.ncu_csv.empty() && args.command.empty())
        throw UsageError("no CUDA program to measure: put it after '--', e.g. roofline measure --engine ncu -- ./app");
    if (args.offload && !args.ncu_csv.empty())
        throw UsageError("--offload runs the program under CUPTI; with --ncu-csv (a recorded run) give the summary "
                         "that run wrote: --offload-summary FILE");
    if (!args.offload_summary.empty() && args.ncu_csv.empty())
        throw UsageError("--offload-summary goes with --ncu-csv (both recorded earlier); to measure a program now, "
                         "use --offload");
    app::refuse_output_over_store(args.output, args.db, args.no_store);
    // The engine's vendor; --ncu-csv (with --engine auto) is ncu's CSV.
    const auto& named = measure::engine_named(args.engine);
    const auto& engine = named.runs_through_gpu_backend ? named : measure::engine_descriptor(measure::EngineKind::ncu);
    return measure_gpu_kernels({args.command, args.ncu_csv, args.output, args.db, args.no_store, args.quiet,
                                args.offload, args.offload_summary, engine.gpu_vendor});
}

// What the runs were, said before the points: the engine and why, the planning's and the
// runs' notes and warnings, the AVX-512 check and --counts-from.
void say_runs(const app::ProgramMeasurement& measured, const app::MeasurePlan& plan,
              const measure::EngineDescriptor& requested, const std::optional<EvexCheck>& evex,
              const MeasureArgs& args, const Speaker& say) {
    const auto& result = measured.result;
    say.note(fmt::format("engine: {} ({})", measure::engine_name(result.engine),
                         (args.functions || !args.region_functions.empty()) && requested.automatic
                             ? "--functions / --region-function need it"
                             : result.engine_reason));
    say.note(fmt::format("timing comes from a native run (instrumentation distorts time); counts from the {} engine; "
                         "merged per region by name",
                         measure::engine_name(result.engine)));
    for (const auto& n : plan.notes) say.note(n);
    if (!measured.stdin_replay.note.empty()) say.note(measured.stdin_replay.note);
    for (const auto& n : result.notes) say.note(n);
    if (!measured.stdin_replay.warning.empty()) say.warning(measured.stdin_replay.warning);
    for (const auto& w : result.warnings) say.warning(w);
    report_evex_check(evex, result, args, [&](const std::string& n) { say.note(n); });
}

// How the runs ended (a stop signal, the command killed), and what call timing and sampling did.
void say_ending(const app::ProgramMeasurement& measured, const measure::MeasureRequest& request, int stop_signal,
                const Speaker& say) {
    const auto& result = measured.result;
    if (stop_signal)
        print_stderr("roofline: interrupted by {}: no further run was started; the points below are from "
                     "the runs that were made (exit {})\n",
                     measure::signal_name(stop_signal), 128 + stop_signal);
    if (!result.status.exited)
        print_stderr("roofline: the command was {}; what was measured up to then follows\n", result.status.describe());
    else if (result.status.started && result.status.exit_code != 0)
        // Said under -q too: a table from a run that failed (bad arguments, a missing input) looks like
        // any other, and only the exit status, passed through, said otherwise.
        say.warning(fmt::format("the command {}: if it failed, the points are of the work it did before it "
                                "stopped, not of the work it was meant to do (roofline exits {} too)",
                                result.status.describe(), result.status.exit_code));
    const auto& engine = measure::engine_descriptor(result.engine);
    if (request.region_scope == measure::RegionScope::process && engine.can(measure::EngineCapability::counts) &&
        !engine.can(measure::EngineCapability::threads))
        say.note("the perf engine counts a region on the threads that opened it, on those started inside it (up "
                 "to their exit or the region's end) and on those of the OpenMP teams forked inside it (their "
                 "bodies); work that other threads do meanwhile (a pool started before it opened, tasks other "
                 "threads run) is not in it");
    if (const auto& timing = measured.timing) {
        if (!timing->ok)
            say.warning("timing function calls: " + timing->error + measure::stderr_tail_text(timing->stderr_tail));
        long long calls = 0;
        for (const auto& f : timing->functions) calls += f.calls;
        say.note(fmt::format("call-timing run (inclusive wall time of --region-function calls, ptrace breakpoints at "
                             "entry and return, less {:.3g} us per call for the ptrace stop, {}): {:.3f} s against "
                             "{:.3f} s untraced, {}, {} calls timed",
                             timing->stop_seconds * 1e6,
                             timing->stop_from_wall_time
                                 ? "from the traced run's extra wall time per stop, more than calibrated"
                                 : "as calibrated at its start",
                             timing->wall_seconds, result.wall_seconds, timing->status.describe(), calls));
    }
    if (const auto& sampling = measured.sampling) {
        const std::string what =
            sampling->call_stacks
                ? fmt::format("with call stacks ({} of {} exact: unwound to their thread's start by call-frame "
                              "information, {} of them past code without it by a stack scan, and every tail call "
                              "bridged a direct jump{}); --functions times are self CPU "
                              "time, --region-function times inclusive CPU time, summed over threads",
                              sampling->samples - sampling->stacks_incomplete, sampling->samples,
                              sampling->stacks_scanned,
                              sampling->unwind_error.empty() ? "" : "; " + sampling->unwind_error)
                : "IP samples, no call stacks; a function's time is its self CPU time summed over threads "
                  "(callees not included)";
        say.note(fmt::format("{} (per-function time): {:.3f} s{}, {} samples every {:.0f} us of task-clock "
                             "CPU time{}, {}",
                             sampling->runs > 1 ? fmt::format("{} sampling runs", sampling->runs) : "sampling run",
                             sampling->wall_seconds,
                             sampling->runs > 1 ? fmt::format(" each (mean); their samples pooled, a time being a "
                                                              "run's: samples x period / {}",
                                                              sampling->runs)
                                                : "",
                             sampling->samples, sampling->period_seconds * 1e6,
                             sampling->lost ? fmt::format(", {} lost", sampling->lost) : std::string{}, what));
        if (sampling->lost)
            say.warning(fmt::format("the kernel dropped {} samples: per-function times are low", sampling->lost));
    } else if (!measured.sampling_error.empty()) {
        say.warning(fmt::format("no sampled per-function time: sampling the native run failed ({}); those "
                                "functions keep their counts but are not placed on the roofline",
                                measured.sampling_error));
    }
}

// The notes on figures the counting run cannot make exact, said under the table and kept in the
// provenance, each under the key that says which way it errs:
// - dram_lower_bound: "POINT: the data it touched (about 30 MiB) fills 94% of the simulated 32 MiB
//   L3; ...: DRAM bytes here are a lower bound" (core/llc_occupancy; report says it again), and
//   "POINT: 1.57 MB of its write-backs are counted nowhere: ..." (core/dirty_at_end: the tool's
//   count of the point's own lines; from an older tool's output, "up to" a bound with the
//   program's figure);
// - rep_string_stores: its REP STOS/MOVS write-allocate reads, bytes that may be too many, not too
//   few (core/rep_string_stores);
// - math_library_flops: its FLOPs run inside a math library, no bytes at all (core/math_library_flops).
// One key held all three once, and told a reader of the provenance that bytes possibly too many,
// and FLOPs, were DRAM lower bounds.
struct CountNote {
    const char* key;
    std::string text;
};
std::vector<CountNote> count_notes(const std::vector<Point>& points) {
    std::vector<CountNote> notes;
    for (const auto& p : points)
        if (const auto n = llc_near_full(p)) notes.push_back({"dram_lower_bound", p.name + ": " + llc_near_full_text(*n)});
    std::optional<double> run_end_dirty;
    for (const auto& p : points)
        if (p.name == measure::kProgramRegion)
            if (const auto it = p.details.find(kCacheDirtyAtEndBytes); it != p.details.end()) run_end_dirty = it->second;
    for (const auto& p : points)
        if (const auto d = dirty_at_end(p, run_end_dirty))
            notes.push_back({"dram_lower_bound", p.name + ": " + dirty_at_end_text(*d)});
    for (const auto& p : points)
        if (const auto f = rep_string_fill(p))
            notes.push_back({"rep_string_stores", p.name + ": " + rep_string_fill_text(*f)});
    for (const auto& p : points)
        if (const auto m = math_library_flops(p))
            notes.push_back({"math_library_flops", p.name + ": " + math_library_flops_text(*m)});
    return notes;
}

// "POINT: its busiest thread did 1.50x an equal share of its FLOPs ...", for each point whose threads
// did clearly unequal shares (core/thread_imbalance): said under the table and kept in the
// provenance ("thread_imbalance"); report says it again.
std::vector<std::string> thread_share_notes(const std::vector<Point>& points) {
    std::vector<std::string> notes;
    for (const auto& p : points)
        if (const auto t = thread_imbalance(p)) notes.push_back(p.name + ": " + thread_imbalance_text(*t));
    return notes;
}

// The points' tables: the result, printed under -q too (which leaves out notes and progress), so
// that `measure -q --no-store` still shows what it measured. In a job, rank 0 prints the job's
// (finish_rank) and the tables of functions and loops.
void print_tables(const app::MeasuredPoints& made, const app::ProgramMeasurement& measured, const app::MeasurePlan& plan,
                  const std::optional<MachineFile>& machine, const std::vector<std::string>& machine_notes,
                  const MeasureArgs& args, const Speaker& say) {
    const auto& mpi = plan.mpi;
    if (mpi && mpi->rank != 0) return;
    if (!mpi) print_measured_points(made.points, machine);
    // A model of another host or CPU (--machine, or a store several machines share): the points
    // are this machine's, judged on its roofs all the same; said as report says it.
    const bool judged = std::any_of(made.points.begin(), made.points.end(), [](const Point& p) {
        return p.work_counted && !p.bytes.empty() && p.seconds > 0;
    });
    if (!mpi && machine && judged)
        if (const auto elsewhere = measured_elsewhere("", run_provenance(args.command, "measure"), machine->model)) {
            std::fflush(stdout);  // under the table it speaks of
            say.warning(terminal_text(measured_elsewhere_text({*elsewhere})));
        }
    for (const auto& note : count_notes(made.points)) say.note(note.text);
    for (const auto& note : thread_share_notes(made.points)) say.note(note);
    if (!mpi && !args.counts_from.empty())
        fmt::print("{}", render_counted_from_footer(args.counts_from, args.command.front()));
    if (!machine) say.note("no machine model: run 'roofline bench' (or pass --machine) to see each point against the roofline");
    for (const auto& n : machine_notes) say.note("machine model: " + n);
    if (!made.function_regions.empty()) print_function_regions(made.function_regions);
    if (args.functions)
        print_functions(made.shown_functions, measured.result.functions, args.min_share, measured.sampling);
    std::set<std::string> said;
    for (const auto& loops : made.loops) print_loops(loops, args.min_share, said);
}

// How a lost run ended: "killed by SIGILL", or its exit when it left otherwise (the signal
// roofline exits with is then the cause's, SIGILL for an instruction Valgrind cannot decode).
std::string lost_run_ending(const measure::LostRun& lost) {
    return lost.status.signal ? "killed by " + measure::signal_name(lost.status.signal)
                              : fmt::format("{} (taken as {})", lost.status.describe(), measure::signal_name(lost.signal));
}

// What was run, where and how, stored with the points: the runs that happened, the ISA each
// executed, how the time was taken, how the runs ended.
Provenance measure_provenance(const MeasureArgs& args, const app::MeasurePlan& plan,
                              const app::ProgramMeasurement& measured, const std::optional<EvexCheck>& evex,
                              int stop_signal) {
    const auto& result = measured.result;
    const auto& repeat = plan.program.measure.repeat;
    auto provenance = provenance_of(args, result.engine, measured.timing.has_value(), measured.sampling.has_value());
    if (result.wall_timing)  // how the points' seconds were taken (--repeat)
        provenance.options["timing"] =
            timing_provenance_text(*result.wall_timing, result.repeat_plan.automatic && args.times.empty(),
                                   repeat.cold_flush_bytes) +
            (args.times.empty() ? "" : " (the earlier run's, " + args.times + ")");
    if (repeat.cold_flush_bytes > 0) provenance.options["cold"] = "yes";
    if (!plan.cache_model.empty() &&
        measure::engine_descriptor(result.engine).can(measure::EngineCapability::cache_simulation))
        provenance.options["cache_model"] = plan.cache_model + "; LRU, write-back, write-allocate";
    // Which of the counted copies went past the caches depends on these (glibc's, natively).
    if (!result.counting_glibc_thresholds.empty())
        provenance.options["glibc_thresholds_counted"] =
            result.counting_glibc_thresholds + " (this machine's native values, given to the counting run)";
    // Turned off, the bytes are L1's only: a reader of the points must know it was asked for.
    if (args.cache_sim == "off" &&
        measure::engine_descriptor(result.engine).can(measure::EngineCapability::cache_simulation))
        provenance.options["cache_sim"] = "off: bytes at L1 only, no cache simulation";
    record_evex_check(evex, result, args, provenance);
    // How the timed run ended: --times refuses the times of a run that crashed.
    if (args.times.empty())
        provenance.options["native_status"] = result.status.exited ? fmt::format("exit {}", result.status.exit_code)
                                                                    : fmt::format("signal {}", measure::signal_name(result.status.signal));
    if (stop_signal) {
        provenance.options["interrupted"] = measure::signal_name(stop_signal);
        // Only the runs that happened: an interrupt before the counting run leaves no counts.
        if (result.counts.empty())
            std::erase(provenance.runs, provenance.engine);
    }
    // A counting run killed by a signal (the OOM killer): its counts are lost, the time is kept.
    if (result.lost_run && result.lost_run->signal) {
        provenance.options["lost_run"] = fmt::format("{}: {}{}; the points are {} only",
                                                     result.lost_run->what, lost_run_ending(*result.lost_run),
                                                     result.lost_run->cause.empty() ? "" : " (" + result.lost_run->cause + ")",
                                                     args.times.empty() ? "the native run's time" : "the times given");
        if (result.counts.empty()) {
            std::erase(provenance.runs, provenance.engine);
            provenance.options.erase("cache_model");  // nothing was simulated to the end
        }
    }
    return provenance;
}

// The points to -o and the store (a job's through its rank 0), and the exit code: the command's,
// 128 + a stop signal, 128 + the signal that killed the counting run, or failure when the points
// went nowhere.
int deliver_measured(const std::vector<Point>& points, const Provenance& provenance, const app::MeasurePlan& plan,
                     const measure::MeasureResult& result, int stop_signal, const std::optional<MachineFile>& machine,
                     ResultsStore* store, const MeasureArgs& args, bool quiet) {
    const int lost_signal = result.lost_run ? result.lost_run->signal : 0;
    // The stored set's name says it is partial, so that list and show tell it from a whole run.
    const std::string set_name =
        fmt::to_string(fmt::join(args.command, " ")) +
        (stop_signal  ? fmt::format(" (interrupted by {}: partial)", measure::signal_name(stop_signal))
         : lost_signal ? fmt::format(" (counting run killed by {}: time only)", measure::signal_name(lost_signal))
                       : "");
    if (plan.mpi) {
        const RankJobOutput out{args.output, args.db, args.no_store, args.quiet, plan.started_unix_seconds,
                                args.rank_wait};
        const bool written = finish_rank(*plan.mpi, points, provenance, machine, out);
        const int code = lost_signal ? 128 + lost_signal : result.status.pass_through_code();
        return written || code != 0 ? code : 1;
    }
    // Every destination is tried, each failure said; when one failed the points are also written where
    // they can be, so that a run is never lost (a full disk, a database locked by then).
    PointDestinations to{args.output, nullptr, set_name, "the points", quiet};
    if (store) to.store = [&] { return store; };
    // The set names the stored machine it was judged on (read from this same --db).
    if (machine) to.machine_id = machine->stored_id;
    const bool delivered = deliver_points(points, provenance, to);
    if (stop_signal) return 128 + stop_signal;
    if (lost_signal) {
        // Said last, after where the points went: which run died, why, what was kept, the exit code.
        print_stderr("roofline: {} was {}{}; kept: {}, {} time-only point{} (no FLOPs or bytes){}; exit {}\n",
                     result.lost_run->what, lost_run_ending(*result.lost_run),
                     !result.lost_run->cause.empty() ? " (" + result.lost_run->cause + ")"
                     : lost_signal == SIGKILL        ? " (maybe by the OOM killer: see 'dmesg')"
                                                     : "",
                     args.times.empty() ? "the native run's time" : "the times of " + args.times, points.size(),
                     points.size() == 1 ? "" : "s",
                     delivered ? "" : " (see above for where)", 128 + lost_signal);
        return 128 + lost_signal;
    }
    const int code = result.status.pass_through_code();
    return delivered || code != 0 ? code : kExitFailure;
}

// SIGPIPE ignored for the object's life.
class PipeIgnored {
public:
    PipeIgnored() {
        struct sigaction ignore {};
        ignore.sa_handler = SIG_IGN;
        sigemptyset(&ignore.sa_mask);
        ::sigaction(SIGPIPE, &ignore, &old_);
    }
    ~PipeIgnored() { ::sigaction(SIGPIPE, &old_, nullptr); }
    PipeIgnored(const PipeIgnored&) = delete;
    PipeIgnored& operator=(const PipeIgnored&) = delete;

private:
    struct sigaction old_ {};
};

int run_measure(const MeasureArgs& args) {
    // 'measure -- ""' named no program: said so, not "command not found: " with nothing after it.
    if (!args.command.empty() && args.command.front().find_first_not_of(" \t\n") == std::string::npos)
        throw UsageError(fmt::format("the command to measure is {}: put the program and its arguments after '--', "
                                     "e.g. roofline measure -- ./my_app input.dat",
                                     args.command.front().empty()
                                         ? std::string("empty ('' after '--')")
                                         : fmt::format("blank ('{}': white space only)", message_name(args.command.front()))));
    const auto& requested = app::requested_engine(args.engine);
    if (app::measures_gpu_kernels(requested, !args.ncu_csv.empty(), args.engine)) return run_gpu_measure(args);
    // Every option that makes no sense is refused before anything runs, in this order.
    app::MeasurePlanner planner(cpu_options(args), requested);
    // AVX-512 (EVEX) code that Valgrind cannot decode is refused here, before anything runs (issue 35).
    const auto evex = guard_evex(planner.request(), args.counts_from,
                                 planner.options().per_function() || !args.times.empty());
    if (planner.simulates_caches()) {
        if (args.cache_model.empty())
            planner.simulate_this_machines_caches();
        else
            simulate_cache_model(planner, args);
    }
    const auto plan = planner.plan_runs([](const char* name) -> const char* { return std::getenv(name); });
    // Each rank writes its points next to -o for rank 0 to gather: standard output has no "next to".
    if (plan.mpi && is_standard_output_path(args.output))
        throw UsageError("under MPI each rank writes its points next to -o's file (job.rank<R>.json): give -o FILE, "
                         "not -o -");
    // A reader of our output that leaves ('2>&1 | head', a pager quit) must not end roofline by
    // SIGPIPE when it next says something, before the points are delivered: writes fail instead
    // (EPIPE), and the exit says standard output was lost. The measured command gets SIGPIPE back
    // (child_process).
    const PipeIgnored pipe_ignored;
    const Speaker say{args.quiet || plan.quiet_rank()};  // rank 0 speaks for the job
    measure::set_long_run_progress(!say.quiet);  // "the run under the Valgrind tool goes on: 60 s so far"
    // (A missing or invalid --machine, a --db in a missing directory, unwritable or not a database.)
    StoreAccess access(args.db);
    std::vector<std::string> machine_notes;
    const auto machine = load_machine_for(args, access, machine_notes);
    const auto store = open_store(args, plan.mpi);

    // Ctrl-C / SIGTERM from here on: forwarded to the running child, and no further run starts; what
    // finished is kept and roofline exits 128 + the signal.
    measure::clear_interrupt();
    measure::InterruptScope interrupt_scope;
    app::ProgramMeasurement measured;
    try {
        measured = app::measure_program(plan.program);
    } catch (const measure::CommandNotFound& e) {
        print_stderr("roofline: error: {}\n", e.what());
        return e.exit_code;
    }
    say_runs(measured, plan, requested, evex, args, say);
    const int stop_signal = measure::interrupt_signal();
    say_ending(measured, plan.program.measure, stop_signal, say);

    app::PointsRequest points_request;
    points_request.functions = args.functions;
    points_request.loops = args.loops;
    points_request.min_share = args.min_share / 100;
    points_request.max_timed_calls = args.max_timed_calls;
    if (!planner.loops_timed_file().empty()) {
        points_request.loops_counted_file = plan.program.measure.per_instruction_object;
        points_request.loops_timed_file = planner.loops_timed_file();
    }
    auto made = app::measure_points(measured, points_request);
    // Judged later (report, plot) as here: a point above its roof names the other build first.
    if (!args.counts_from.empty())
        for (auto& p : made.points)
            if (p.work > 0 || !p.bytes.empty()) p.details[kCountedFromOtherBuild] = 1;
    for (const auto& m : made.messages) {
        if (m.kind == app::MeasureMessage::Kind::warning)
            say.warning(m.text);
        else
            say.note(m.text);
    }
    if (plan.mpi && !plan.rank_rerun && planner.options().per_function())
        say.note(fmt::format("under {} a rank runs the program once: functions get no call timing or sampling, so "
                             "no time", plan.mpi->launcher));
    try {
        print_tables(made, measured, plan, machine, machine_notes, args, say);
    } catch (const std::system_error&) {
        // Standard output is gone (EPIPE, a full disk): the points are still delivered; main's
        // check of standard output says it and makes the exit a failure.
    }
    auto provenance = measure_provenance(args, plan, measured, evex, stop_signal);
    if (const auto notes = thread_share_notes(made.points); !notes.empty())
        provenance.options["thread_imbalance"] = fmt::format("{}", fmt::join(notes, " | "));
    for (const auto& note : count_notes(made.points)) {
        auto& kept = provenance.options[note.key];
        kept += (kept.empty() ? "" : " | ") + note.text;
    }
    return deliver_measured(made.points, provenance, plan, measured.result, stop_signal, machine, store.get(), args,
                            say.quiet);
}

} // namespace

void add_measure_command(CLI::App& app, int& exit_code) {
    auto args = std::make_shared<MeasureArgs>();
    auto* cmd = add_command(app, "measure", "Run a command and place its regions on the roofline");
    cmd->description(
        "Runs COMMAND, collects per region (marker library) and for the whole program the time, FLOPs by\n"
        "precision / kind / vector width and bytes, writes points (schema roofline.points/1) and prints\n"
        "intensity, performance and, with a machine model, each point's binding roof and % of attainable.\n"
        "Timing always comes from a native run; counts from the engine; both are merged per region.\n"
        "The command's exit status is passed through (128 + N when killed by signal N; 127 when not found, 126 when not executable).");
    add_output_option(cmd, args->output, "Write the points to FILE (schema roofline.points/1)");
    cmd->add_option("--engine", args->engine, measure::engines_help())
        ->check(CLI::IsMember(measure::engine_names()))
        ->capture_default_str();
    cmd->add_option("--cache-sim", args->cache_sim,
                    "Instrument engine: simulate this machine's data caches (sizes, ways, line, sharing from "
                    "hwloc; LRU, write-back, write-allocate; AMD's L3 as a victim cache) so every point gets the "
                    "bytes that reach L2, L3 and DRAM, not only L1's. off: L1 bytes only, 2-5x faster")
        ->check(CLI::IsMember({"on", "off"}))
        ->capture_default_str();
    cmd->add_option("--cache-model", args->cache_model,
                    "Simulate the caches of another machine: a machine model (roofline bench -o), a spec sheet "
                    "(examples/machines/*.yaml; sizes only there: 64-byte lines and 8 ways assumed), or 'stored' / "
                    "'stored:ID' for a model in the results store (roofline list)")
        // As parsed, so a configured one is checked too: 'stored:ID' has a whole ID above 0 (the row
        // itself is looked for when read), a file exists.
        ->check(name_not_empty("give a machine file, 'stored' or 'stored:ID', or leave --cache-model out to "
                               "simulate this machine's caches"))
        ->check(CLI::Validator(
            [](std::string& value) -> std::string {
                if (value == kStored) return {};
                if (value.rfind(std::string(kStored) + ":", 0) == 0) {
                    try {
                        (void)parse_stored_source(value, "--cache-model");
                    } catch (const UsageError& e) {
                        throw OptionValueError(e.what());  // the whole message, as the other stored:ID checks
                    }
                    return {};
                }
                return CLI::ExistingFile(value);
            },
            "FILE|stored[:ID]"));
    cmd->add_option("--ncu-csv", args->ncu_csv,
                    fmt::format("Points for CUDA kernels from FILE, Nsight Compute's CSV of an earlier run instead of "
                                "running a command: ncu --csv --print-units base --metrics {} ./app > FILE (or ncu "
                                "--import REPORT --csv --print-units base > FILE). ncu stops at a metric the GPU "
                                "lacks: leave out the tensor ones 'ncu --query-metrics' does not list. Without "
                                "sm__ops_path_tensor_src_* and sm__inst_executed_pipe_tensor the points say their "
                                "tensor-core work was not recorded",
                                fmt::join(ncu_all_roofline_metrics(), ",")))
        ->type_name("FILE")
        ->check(name_not_empty("give the file's name"))
        ->check(CLI::ExistingFile);
    cmd->add_flag("--offload", args->offload,
                  "With --engine ncu: also the whole-offload point, all kernels together with the bytes copied over "
                  "the host-device bus (copies and unified-memory migrations) and the time from the first GPU "
                  "activity to the last, so its throughput intensity TI = FLOPs / bus bytes meets the bus roof. The "
                  "program runs twice, once under CUPTI (roofline-offload.so) and once under ncu, and must do the "
                  "same work both times");
    cmd->add_option("--offload-summary", args->offload_summary,
                    "With --ncu-csv: the whole-offload point from the summaries an earlier run under CUPTI wrote, one "
                    "per CUDA process (ROOFLINE_OFFLOAD_OUT=PREFIX CUDA_INJECTION64_PATH=<libexec>/roofline/"
                    "roofline-offload.so ./app writes PREFIX.<pid>); repeat for each, or give them all, each once (one "
                    "process's summary twice is refused)")
        ->type_name("FILE")
        ->check(name_not_empty("give the file's name"))
        ->check(CLI::ExistingFile);
    cmd->add_flag("--functions", args->functions,
                  "List the top functions by FLOPs and bytes with their self CPU time (instrument engine + a "
                  "sampled native run, no markers needed); each with samples becomes a point");
    cmd->add_flag("--loops", args->loops,
                  "A point per hot loop, without recompiling: the loops of the program's own functions found in "
                  "their machine code (natural loops, nested as a tree; named by source file and lines with debug "
                  "information, by function and address without), counted instruction by instruction under the "
                  "instrument engine (FLOPs, bytes at each cache level, iterations), each loop's own time from "
                  "the samples of its code in a sampled native run (+/-1/sqrt(n)); loops with --min-share of the "
                  "FLOPs, instructions or samples are listed, those with samples placed, in a series per function. "
                  "A loop that calls functions also gets a point 'with its calls': its callees' counts and samples "
                  "added by the call instructions in its body (a function called from several places shared among "
                  "them by their calls). With --region-function, only the loops run inside its calls (its own "
                  "and its callees'). With marker regions, the loops of each region ('REGION: FUNCTION: LOOP'): "
                  "what ran while it was open, each sample given the region's share of its instruction's runs. "
                  "With --counts-from (both builds with -g): counted in that build, timed in the command's, the "
                  "loops matched by function and source lines, the whole run's only (see --counts-from)");
    cmd->add_option("--loops-library", args->loops_libraries,
                    "With --loops: find the loops of this shared library too (its path; repeatable), counted "
                    "instruction by instruction like the program's own code. Without debug information its loops "
                    "are named by the library, their function and offset ('sum_squares in libsq.so: "
                    "sum_squares+0x20'), a function without a symbol (stripped) by its file and its entry address "
                    "from its unwind table, as --functions names it ('(no symbol: libsq.so+0x1100)+0x18')")
        ->type_name("PATH")
        ->check(name_not_empty("give the library's path, as ldd shows it for the program"));
    cmd->add_option("--region-function", args->region_functions,
                    "Measure every call of function NAME as a region (repeatable; no recompiling). NAME is matched "
                    "on the demangled name, qualified or not, with or without its parameters ('sweep', "
                    "'Grid<double>::sweep', 'sweep(int)'); GCC clones (.constprop.N, .isra.N, .part.N) count as "
                    "the function, and a nested C function or gfortran contained procedure ('daxpy.2') is "
                    "matched without its number. Counts include callees; the time is inclusive too: the wall time of its calls, "
                    "timed at entry and return, or for a function called more than --max-timed-calls times, its "
                    "CPU time in call-stack samples of a native run (DWARF unwinding, no frame pointers needed)")
        ->type_name("NAME");
    cmd->add_option("--min-share", args->min_share,
                    "--functions shows functions with at least this percentage of the program's FLOPs, bytes or "
                    "CPU time; those with this share of the FLOPs become points. --loops: loops with this share of "
                    "the FLOPs, instructions or samples")
        ->check(a_number_check())
        ->check(CLI::Range(0.0, 100.0))
        ->type_name("PERCENT")
        ->capture_default_str();
    cmd->add_option("--region-scope", args->region_scope,
                    "process: a region counts the work of every thread while it is open (threads a library "
                    "starts included); thread: only the thread that opened it (LIKWID's semantics)")
        ->check(CLI::IsMember({"process", "thread"}))
        ->capture_default_str();
    cmd->add_option("--max-timed-calls", args->max_timed_calls,
                    "Time each call of a --region-function (two ptrace stops per call) when it is called at most "
                    "N times; above that its time comes from call-stack samples")
        ->check(whole_number_range(0, 100000000))
        ->capture_default_str();
    cmd->add_option("--sample-period", args->sample_period_us,
                    "Task-clock CPU time between samples of the sampled run, in microseconds (default: 100 for "
                    "--functions; with call stacks, the native run's length / 4000 and at least 250)")
        ->check(a_number_check())
        ->check(CLI::Range(10.0, 1e6))
        ->type_name("US");
    cmd->add_option("--times", args->times,
                    "Take region times from FILE, the points of an earlier '--engine time' run of the same "
                    "command, instead of a native run: the program runs only under the Valgrind tool (side "
                    "effects once; MPI launchers that let a rank start the program once). Inside an MPI "
                    "launch, each rank takes its own rank's points from the job's file")
        ->type_name("FILE")
        ->check(name_not_empty("give the file's name"))
        ->check(CLI::ExistingFile);
    cmd->add_option("--rank-wait", args->rank_wait,
                    "Inside an MPI launch: how long rank 0 waits, after its own runs, for the other ranks' points "
                    "(written next to -o, or in the working directory; across nodes the ranks need a file "
                    "system they share)")
        ->check(a_number_check())
        ->check(CLI::Range(0.0, 86400.0))
        ->type_name("SECONDS")
        ->capture_default_str();
    cmd->add_option("--counts-from", args->counts_from,
                    "Count FLOPs and bytes in PROGRAM (the same source built without AVX-512, which Valgrind "
                    "cannot decode) under the instrument engine, with the command's arguments, and time the "
                    "command natively: for programs built with -march=native on AVX-512 CPUs. Both runs' outputs "
                    "are compared; regions are matched by name, --loops by function and source lines (both built "
                    "with -g). With --counts-from, --loops gives the whole run's loops only: not split by marker "
                    "region (a note says so) and not with --region-function (refused), since the timed build's "
                    "samples are matched to loops by source lines, not by instruction; for those, --loops on the "
                    "counted build alone")
        ->type_name("PROGRAM")
        // '' was no --counts-from at all: the command counted as it is.
        ->check(name_not_empty("give the path of the build to count in, or leave --counts-from out"));
    add_machine_option(cmd, args->machine)
        ->description("Machine model to compare with: a file, 'stored' or 'stored:ID' (default: the latest stored "
                      "one, if any)");
    add_db_option(cmd, args->db);
    cmd->add_flag("--no-store", args->no_store, "Do not save the points in the results store");
    add_quiet_flag(cmd, args->quiet);
    add_repeat_options(cmd, args->repeat);
    cmd->add_option("command", args->command, "The command to measure and its arguments, after '--'");
    cmd->footer("Examples:\n"
                "  roofline measure -- ./my_app input.dat\n"
                "  roofline measure --engine instrument --functions -- ./my_app\n"
                "  roofline measure --region-function daxpy -o pts.json -- ./my_app\n"
                "  roofline measure --counts-from ./my_app-noavx512 -- ./my_app   (an AVX-512 build: counts from\n"
                "      the same source built with -march=x86-64-v3, time from ./my_app)\n"
                "  roofline measure --engine ncu -o gpu.json -- ./my_cuda_app   (a point per CUDA kernel)\n"
                "  roofline measure --engine ncu --offload -- ./my_cuda_app     (and the whole offload, bus included)\n"
                "  mpirun -np 4 roofline measure -o job.json -- ./mpi_app   (each rank measures itself; rank 0\n"
                "      writes every rank's points and their sum over ranks to job.json)");
    cmd->callback([args, &exit_code] { exit_code = run_measure(*args); });
}

} // namespace roofline::cli
