// `roofline kernels`: reference kernels with FLOPs and bytes known on paper, timed on
// this machine over a sweep of working-set sizes (app/kernel_sweep), written as points (one
// series per kernel) to a file and the results store. Here: the options, the table and notes
// as the sweep goes, and where the points go.
#include "app/kernel_sweep.hpp"
#include "bench/cache_probe.hpp"
#include "cli/commands.hpp"
#include "cli/common_options.hpp"
#include "cli/invocation.hpp"
#include "cli/messages.hpp"
#include "cli/point_delivery.hpp"
#include "cli/stop_signal.hpp"
#include "cli/usage_error.hpp"
#include "cli/value_check.hpp"
#include "core/byte_sizes.hpp"
#include "core/input_limits.hpp"
#include "core/reference_kernels.hpp"
#include "io/machine_json.hpp"
#include "io/results_store.hpp"
#include "render/reference_kernel_text.hpp"
#include "topo/cpu_activity.hpp"
#include "topo/topology.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <utility>

namespace roofline::cli {
namespace {

using app::KernelSweepStep;

struct KernelsArgs {
    app::KernelSweepRequest request;
    bool list = false;
    std::string stat = "min";
    std::string cache = "warm";
    std::string output;
    std::string db;
    bool no_store = false;
    bool quiet = false;
};

// A row as soon as it is measured, also into a pipe. After a stop signal SIGPIPE is ignored
// (stop_signal.cpp): a reader gone with the terminal (`| tee` over a dropped ssh connection)
// makes this throw, and the row is not worth the points.
void print_row(const std::string& text) {
    try {
        fmt::print("{}", text);
        std::fflush(stdout);
    } catch (const std::exception&) {
    }
}

// A row's "at": the level the point's data comes from and it is judged at (DRAM when cold,
// else the cache one thread's share of the working set lives in), as its bytes were placed.
std::string row_level(const Point& p, const app::KernelSweepPlan& plan) {
    const auto it = p.details.find("working_set_bytes");
    const double per_thread = it == p.details.end() ? 0.0 : it->second / std::max(1, p.threads);
    return data_level(per_thread, plan.caches, p.threads, data_cold(plan.request.cache));
}

// What became of a planned point: its row, or why it is left out.
void say_step(const KernelSweepStep& s, const app::KernelSweepPlan& plan, bool quiet) {
    const std::string size = format_bytes(s.bytes);
    switch (s.kind) {
    case KernelSweepStep::Kind::left_out:
        if (quiet) return;  // notes; -q keeps the result, warnings and errors
        return print_stderr("roofline: note: {} at {} left out: one call would take too long (give --sizes to run it "
                            "anyway)\n", s.kernel, size);
    case KernelSweepStep::Kind::long_calls_ahead:
        if (quiet) return;
        return print_stderr("roofline: note: {} at {}: one call may take minutes (the default sizes stop at {}); "
                            "Ctrl-C leaves it out and keeps the points measured\n",
                            s.kernel, size, format_bytes(static_cast<std::uint64_t>(s.max_bytes)));
    case KernelSweepStep::Kind::size_changed:
        if (quiet) return;
        return print_stderr("roofline: note: {} runs at {} where {} was asked ({}); its points' working sets are "
                            "the sizes that ran\n", s.kernel, format_bytes(static_cast<std::uint64_t>(s.used_bytes)), size,
                            s.smallest ? fmt::format("its smallest size, n = {}", s.n)
                                       : fmt::format("its size comes in whole steps: n = {}", s.n));
    case KernelSweepStep::Kind::cache_unreadable:
        return print_stderr("roofline: warning: {} at {}: the point the results store holds for it cannot be read, so "
                            "it is measured again: {}\n", s.kernel, size, s.check_error);
    case KernelSweepStep::Kind::no_memory:
        return print_stderr("roofline: error: {} at {}: its arrays need {}, and {} of memory is available; skipped\n",
                            s.kernel, size, format_bytes(static_cast<std::uint64_t>(s.needs_bytes)),
                            format_bytes(static_cast<std::uint64_t>(s.available_bytes)));
    case KernelSweepStep::Kind::allocation_failed:
        return print_stderr("roofline: error: {} at {}: not enough memory for its arrays; skipped\n", s.kernel, size);
    case KernelSweepStep::Kind::wrong_result:
        print_stderr("roofline: error: {} at n = {}: wrong result: {}\n", s.kernel, s.n, s.check_error);
        print_row(kernel_sweep_row(s.kernel, *s.point, row_level(*s.point, plan), "WRONG"));
        return;
    case KernelSweepStep::Kind::cached:
    case KernelSweepStep::Kind::measured:
        // The rows are the result: -q keeps them (without -o they are all there is).
        print_row(kernel_sweep_row(s.kernel, *s.point, row_level(*s.point, plan),
                                   s.kind == KernelSweepStep::Kind::cached ? "ok, cached" : "ok"));
        return;
    }
}

// The points measured (and taken from the store) written to -o and the store, with how they
// were measured; the exit code. Called once, by the sweep's end or by the watchdog after a signal.
int deliver_kernel_points(const app::KernelSweepResult& r, bool interrupted, const StopSignal& stop,
                          const KernelsArgs& args, ResultsStore* store) {
    const std::size_t count = r.points.size();
    if (r.activity)
        for (const auto& w : cpu_activity_warnings(
                 *r.activity, "the sweep",
                 "each point is the best (or median) of its samples, which passes over a disturbed one, but a "
                 "point whose samples were all disturbed is low; run again when the machine is quieter"))
            print_stderr("roofline: warning: {}\n", w);
    if (r.from_cache && !args.quiet)
        print_stderr("roofline: {} of {} point{} taken from the results store: measured before with the same kernel, "
                     "size, options, build and machine (--rerun measures them again)\n", r.from_cache, count,
                     count == 1 ? "" : "s");
    Provenance provenance = run_provenance(invocation_argv(), "kernels");
    app::describe_kernel_sweep(args.request, provenance);
    if (interrupted) provenance.options["interrupted"] = stop.signal_name();  // as measure's: the points before it
    PointDestinations to{args.output, nullptr,
                         fmt::format("{}{}", fmt::join(provenance.command, " "),
                                     interrupted ? fmt::format(" (interrupted by {}: partial)", stop.signal_name()) : ""),
                         "the points", args.quiet};
    if (store) to.store = [store] { return store; };
    to.cache_keys = &r.keys;
    const bool delivered = deliver_points(r.points, provenance, to);
    if (!interrupted) return delivered && r.failed_checks == 0 && r.skipped == 0 ? kExitOk : kExitFailure;
    if (count == 0)
        print_stderr("roofline: interrupted by {} before any point was measured\n", stop.signal_name());
    else
        print_stderr("roofline: interrupted by {}: the {} point{} measured before it {} kept{}\n", stop.signal_name(),
                     count, count == 1 ? "" : "s", count == 1 ? "is" : "are",
                     delivered ? ", marked partial" : " (see above for where)");
    return stop.exit_code();
}

// What the command line chose more than once, run once: said, as a kernel named twice was
// announced twice ("2 kernels") and run once, unsaid.
void say_repeats(const app::KernelSweepPlan& plan) {
    for (const auto& r : plan.repeated_kernels) {
        const bool same = std::all_of(r.given.begin(), r.given.end(), [&](const std::string& g) { return g == r.given[0]; });
        if (same)
            print_stderr("roofline: note: {} is named {}: it runs once\n", r.kernel,
                         r.given.size() == 2 ? std::string("twice") : fmt::format("{} times", r.given.size()));
        else
            print_stderr("roofline: note: {} is chosen by '{}': it runs once\n", r.kernel,
                         fmt::join(r.given, "' and '"));
    }
    for (const auto& p : plan.repeated_params)
        print_stderr("roofline: note: --param {} gives {} more than once: each value runs once\n", p.name,
                     fmt::join(p.repeated, ", "));
    if (plan.repeated_sizes.empty()) return;
    std::vector<std::string> sizes;
    for (const auto& r : plan.repeated_sizes)
        sizes.push_back(fmt::format("{} {}", format_bytes(r.bytes), r.times == 2 ? std::string("twice")
                                                                                 : fmt::format("{} times", r.times)));
    print_stderr("roofline: note: --sizes gives {}: each size runs once\n", fmt::join(sizes, ", "));
}

int run_kernels(KernelsArgs args) {
    if (args.list) {
        // The kernels named (or matching a pattern), each once; a name no kernel has is an error that
        // lists them (app::RequestError: exit 2). It printed every kernel whatever was named.
        std::vector<const ReferenceKernel*> kernels;
        for (const auto* entry : app::choose_reference_kernels(args.request.names).kernels)
            kernels.push_back(entry->kernel);
        fmt::print("{}", reference_kernel_list_text(kernels));
        return kExitOk;
    }
    args.request.median = args.stat == "median";
    args.request.cache = *parse_cache_mode(args.cache);  // checked by the option's validator
    const auto topology = Topology::discover();
    topology.require_this_machine("kernels");
    auto plan = app::plan_kernel_sweep(  // app::RequestError: a usage error (main)
        args.request, static_cast<int>(topology.cores().size()),
        [&] { return checked_data_caches(topology, CacheProbe::when_doubtful); },
        [](const std::string& finding) { print_stderr("note: cache hierarchy: {}\n", finding); });
    if (!args.quiet) say_repeats(plan);
    // Destinations first: a sweep can take minutes.
    if (!args.output.empty()) check_writable(args.output);
    std::unique_ptr<ResultsStore> store;
    if (!args.no_store) {
        check_store_writable(args.db);
        store = ResultsStore::open_db_option(args.db);
    }
    app::KernelSweep sweep(std::move(plan), topology, store.get());
    if (!sweep.all_threads_bound())
        print_stderr("roofline: warning: not every thread could be bound to its core: the OS places them\n");
    // Ctrl-C, SIGTERM, SIGHUP: said at once; the sweep stops after the point being measured (the
    // watchdog below leaves it out after 2 s); a second signal writes what was measured at once.
    const StopSignal stop("stopping after the point being measured (at most 2 s more); the points measured so far "
                          "are kept and written; Ctrl-C again stops now and writes them",
                          StopSignal::Repeat::count,
                          "stopping now: writing the points measured so far (a fifth signal leaves at once, "
                          "unsaved)");
    const auto& p = sweep.plan();
    const int threads = args.request.threads;
    if (!args.quiet) {
        print_stderr("roofline kernels: {} kernel{} at {} size{}, {}, {} caches (Ctrl-C stops and keeps what was "
                     "measured)\n", p.kernels.size(), p.kernels.size() == 1 ? "" : "s", p.sizes.size(),
                     p.sizes.size() == 1 ? "" : "s",
                     threads > 1 ? fmt::format("{} threads, one per core, each on arrays of its own", threads)
                                 : std::string("one thread"),
                     args.cache);
    }
    print_row(kernel_sweep_header());
    bool delivered_once = false;  // under the sweep's lock
    const auto deliver = [&](bool interrupted) {
        return sweep.with_result([&](const app::KernelSweepResult& r) {
            if (std::exchange(delivered_once, true)) return kExitFailure;
            return deliver_kernel_points(r, interrupted, stop, args, store.get());
        });
    };
    // One call of a kernel can last minutes (a naive DGEMM out of cache): if the point has not
    // ended 2 s after a signal, or a second signal came, it is left out, what was measured is
    // delivered from the watcher, and the process ends.
    StopWatcher watcher(stop, 2.0, [&](bool second_signal) {
        if (second_signal)
            print_stderr("roofline: stopped by a second signal: the point being measured is left out\n");
        else
            print_stderr("roofline: the point being measured did not end within 2 s of the signal: left out\n");
        std::fflush(stdout);
        int code = kExitFailure;
        try {
            code = deliver(true);
        } catch (const std::exception& e) {
            print_stderr("roofline: error: {}\n", e.what());
        }
        std::fflush(nullptr);
        std::_Exit(code);
    });
    sweep.run(stop.flag(), [&](const KernelSweepStep& step) { say_step(step, p, args.quiet); });
    watcher.done();  // the sweep may throw: the watcher's end joins it then
    return deliver(stop.stopped());
}

} // namespace

void add_kernels_command(CLI::App& app, int& exit_code) {
    auto args = std::make_shared<KernelsArgs>();
    auto* cmd = add_command(app, "kernels", "Time reference kernels whose FLOPs and bytes are known on paper");
    cmd->description(
        "Runs reference kernels (STREAM, daxpy, dot, single-precision sums under three ceilings, 2-D and\n"
        "3-D stencils, dense MVM, SpMV, DGEMM, the tall-and-skinny A^T B, a 3-D FFT; ours, OpenBLAS's,\n"
        "FFTW's) natively on one thread (or --threads N) over a sweep of working-set sizes, checks each\n"
        "result, and writes one point per size (series = kernel) with the analytic FLOPs and bytes: L1 gets\n"
        "the loop's loads and stores, a level below gets the memory traffic when the working set does not\n"
        "fit above it (--cache cold or cold-data: every level below L1, down to DRAM, since the flushed\n"
        "arrays come from memory whatever their size; such points are named and grouped with the cache\n"
        "mode, e.g. 'stream_triad 16 KiB cold'). Caches warm (or --cache cold...); each point is the\n"
        "minimum (or median) of several samples; a point measured before with the same kernel, size,\n"
        "options, build and machine is taken from the results store unless --rerun. The table's GB/s are\n"
        "at the level its 'at' names: where the point's data comes from and it is judged, the cache its\n"
        "working set fits (one thread's share of it), or DRAM (a larger one, or --cache cold...).");
    cmd->add_option("names", args->request.names,
                    "Kernels to run (default: all; see --list): names, or shell patterns in quotes ('sum_sp*'); a "
                    "kernel named or matched more than once runs once, and a note says so; a name no kernel has is "
                    "an error");
    cmd->add_flag("--list", args->list,
                  "List the kernels with their code and formulas on standard output, and exit: every one, or those "
                  "the names given choose (roofline kernels --list daxpy 'stream_*'); the options of a run are "
                  "refused with it");
    cmd->add_option("--sizes", args->request.sizes,
                    "Working-set sizes: a list (32K,1M,256M) or a sweep FROM..TO:xF (1K..1G:x2); default: half "
                    "of each cache level and 8x the last (at least 64 MiB); a size given more than once runs once, "
                    "and a note says so")
        // As parsed, so a configured one is checked too.
        ->check(parsed_check([](const std::string& text) { return parse_size_sweep(text); }));
    cmd->add_option("--param", args->request.params,
                    "NAME=V1,V2,...: run the kernels that have parameter NAME at each value (repeat for a grid; "
                    "each combination is a series): atb_ours/atb_openblas m=8,16,32, spmv_random nnzr=4,16; a value "
                    "given more than once runs once, and a note says so")
        ->type_name("NAME=LIST")
        // As parsed, so a configured one is checked too: the form, the name, each value's range
        // (which of the kernels chosen have it is the run's to say).
        ->check(value_check([](const std::string& text) -> std::string {
            try {
                (void)parse_kernel_param(text);
            } catch (const std::invalid_argument& e) {
                return e.what();
            }
            return {};
        }));
    cmd->add_option("--samples", args->request.samples, "Timed samples per point (default 5)")
        ->check(whole_number_range(1, 1000));
    cmd->add_option("--threads", args->request.threads,
                    "Threads, pinned one per core, each running the kernel on arrays of its own (its share of the "
                    "working set), started together; a sample lasts until the slowest is done (default 1)")
        ->check(whole_number_range(1, max_threads));  // the cores are the sweep's to meet
    cmd->add_option("--stat", args->stat, "Statistic over the samples: min (default) or median")
        ->check(CLI::IsMember({"min", "median"}));
    cmd->add_option("--cache", args->cache,
                    "warm (default): calls follow calls over the same data; cold-data: each timed call after its "
                    "arrays are flushed from every cache (clflush); cold-code: after 8 MiB of other code ran; "
                    "cold: both. Cold runs time one call a sample: below a few microseconds the clock's "
                    "resolution shows")
        ->check(CLI::IsMember({"warm", "cold-data", "cold-code", "cold"}));
    add_output_option(cmd, args->output, "Write the points to FILE (schema roofline.points/1)");
    add_db_option(cmd, args->db);
    cmd->add_flag("--no-store", args->no_store,
                  "Do not save the points in the results store (nor take earlier ones from it)");
    cmd->add_flag("--rerun", args->request.rerun,
                  "Measure every point again, even one the store holds from the same kernel, size, options, build "
                  "and machine (by default such a point is taken from the store, and said so)");
    add_quiet_flag(cmd, args->quiet);
    cmd->footer("Examples:\n"
                "  roofline kernels --list\n"
                "  roofline kernels --list 'sum_sp*'                          the kernels whose names match\n"
                "  roofline kernels stream_triad --sizes 1K..1G:x2 -o triad.json   a sweep through every level\n"
                "  roofline kernels sum_sp_scalar sum_sp_unrolled sum_sp_simd --sizes 16K\n"
                "  roofline plot --points triad.json -o triad.html");
    cmd->callback([args, cmd, &exit_code] {
        // --list runs nothing: an option of a run given with it on the command line would be taken
        // and do nothing ('kernels --list daxpy -o k.txt' printed the list and wrote no k.txt).
        // Settings from a configuration file are defaults, not given here: they do not count.
        if (args->list)
            for (const char* name : {"--sizes", "--param", "--samples", "--threads", "--stat", "--cache", "--output",
                                     "--db", "--no-store", "--rerun"})
                if (const CLI::Option* option = cmd->get_option_no_throw(name); option && option->count() > 0)
                    throw UsageError(fmt::format("{} has no effect with --list, which prints the kernels to standard "
                                                 "output and runs none: leave out {} or --list",
                                                 std::string_view(name) == "--output" ? "-o" : name,
                                                 std::string_view(name) == "--output" ? "-o" : name));
        exit_code = run_kernels(*args);
    });
}

} // namespace roofline::cli
