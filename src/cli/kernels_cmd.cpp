// `roofline kernels`: reference kernels with FLOPs and bytes known on paper, timed on
// this machine over a sweep of working-set sizes, written as points (one series per
// kernel) to a file and the results store.
#include "bench/reference_kernel_registry.hpp"
#include "bench/reference_kernel_run.hpp"
#include "bench/thread_team.hpp"
#include "bench/cache_probe.hpp"
#include "cli/commands.hpp"
#include "cli/common_options.hpp"
#include "cli/point_delivery.hpp"
#include "cli/invocation.hpp"
#include "cli/messages.hpp"
#include "cli/stop_signal.hpp"
#include "cli/usage_error.hpp"
#include "cli/value_check.hpp"
#include "core/byte_sizes.hpp"
#include "core/level.hpp"
#include "core/reference_kernels.hpp"
#include "io/machine_json.hpp"
#include "io/points_json.hpp"
#include "io/results_store.hpp"
#include "render/text_escape.hpp"
#include "topo/cpu_features.hpp"
#include "topo/environment.hpp"
#include "topo/topology.hpp"

#include <fmt/core.h>
#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <functional>
#include <mutex>
#include <thread>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <new>
#include <set>
#include <sys/stat.h>
#include <unistd.h>

namespace roofline::cli {
namespace {

struct KernelsArgs {
    std::vector<std::string> names;
    bool list = false;
    std::string sizes;
    int samples = 5;
    std::string stat = "min";
    std::string cache = "warm";
    std::string output;
    std::string db;
    bool no_store = false;
    bool rerun = false;
    bool quiet = false;
    int threads = 1;
    std::vector<std::string> params;  // "m=8,16,32"
};

// --param NAME=V1,V2,...: each kernel that has NAME runs at every value; several --param make a
// grid. Kernels that do not have a parameter ignore it; a name no chosen kernel has is an error.
using ParamGrid = std::map<std::string, std::vector<std::int64_t>>;

ParamGrid parse_param_grid(const std::vector<std::string>& texts,
                           const std::vector<const RegisteredReferenceKernel*>& kernels) {
    ParamGrid grid;
    for (const auto& text : texts) {
        const auto eq = text.find('=');
        if (eq == std::string::npos || eq == 0 || eq + 1 == text.size())
            throw UsageError(fmt::format("--param expects NAME=V1,V2,... (got '{}')", terminal_text(text)));
        const std::string name = text.substr(0, eq);
        if (grid.count(name)) throw UsageError(fmt::format("--param {} is given twice", terminal_text(name)));
        const bool known = std::any_of(kernels.begin(), kernels.end(), [&](const RegisteredReferenceKernel* entry) {
            const ReferenceKernel* k = entry->kernel;
            return std::any_of(k->parameters.begin(), k->parameters.end(),
                               [&](const KernelParameter& p) { return p.name == name; });
        });
        if (!known) {
            std::string have;
            for (const auto& entry : reference_kernel_registry())
                for (const auto& p : entry.kernel->parameters)
                    have += fmt::format("{}{} ({})", have.empty() ? "" : ", ", p.name, entry.name());
            throw UsageError(fmt::format("--param {}: none of the kernels chosen has it (parameters: {})",
                                         terminal_text(name), have));
        }
        std::vector<std::int64_t> values;
        std::size_t start = eq + 1;
        while (start <= text.size()) {
            const auto comma = std::min(text.find(',', start), text.size());
            const std::string item = text.substr(start, comma - start);
            std::size_t used = 0;
            long long v = 0;
            try {
                v = std::stoll(item, &used);
            } catch (const std::exception&) {
                used = 0;
            }
            if (item.empty() || used != item.size())
                throw UsageError(fmt::format("--param {}: '{}' is not a whole number", terminal_text(name),
                                             terminal_text(item)));
            if (std::find(values.begin(), values.end(), v) == values.end()) values.push_back(v);
            start = comma + 1;
        }
        grid[name] = std::move(values);
    }
    return grid;
}

// The parameter sets a kernel runs at: every combination of the values given for its
// parameters (one empty set when none is given: its defaults). Checked against its ranges.
std::vector<KernelParams> param_sets(const ReferenceKernel& k, const ParamGrid& grid) {
    std::vector<KernelParams> sets{{}};
    for (const auto& p : k.parameters) {
        const auto it = grid.find(p.name);
        if (it == grid.end()) continue;
        std::vector<KernelParams> next;
        for (const auto& set : sets)
            for (const auto v : it->second) {
                KernelParams s = set;
                s[p.name] = v;
                next.push_back(std::move(s));
            }
        sets = std::move(next);
    }
    for (const auto& set : sets) {
        try {
            (void)k.resolved(set);
        } catch (const std::invalid_argument& e) {
            throw UsageError(fmt::format("--param: {}", e.what()));
        }
    }
    return sets;
}

// " m=8 nnzr=4": the parameters given, as the point's name and series show them.
std::string params_label(const KernelParams& params) {
    std::string out;
    for (const auto& [name, value] : params) out += fmt::format(" {}={}", name, value);
    return out;
}

void print_list() {
    for (const auto& entry : reference_kernel_registry()) {
        const ReferenceKernel& k = *entry.kernel;
        fmt::print("{:<16} {}\n", k.name, k.code);
        fmt::print("{:<16} n: {}; FLOPs {}; bytes {} ({})\n", "", k.parameter, k.flops_text, k.bytes_text,
                   k.precision == "sp" ? "single precision" : "double precision");
        for (const auto& p : k.parameters)
            fmt::print("{:<16} --param {}=...: {} (default {}; {} to {}{})\n", "", p.name, p.meaning, p.default_value,
                       p.min, p.max, p.multiple_of > 1 ? fmt::format(", a multiple of {}", p.multiple_of) : "");
        if (!k.note.empty()) fmt::print("{:<16} {}\n", "", k.note);
    }
}

// One size per level: half of each cache (it fits), and 8x the last level (at least
// 64 MiB) for DRAM.
std::vector<std::uint64_t> default_sizes(const std::vector<CacheLevel>& caches) {
    std::vector<std::uint64_t> out;
    for (const auto& c : caches)
        if (c.size_bytes > 0) out.push_back(c.size_bytes / 2);
    const std::uint64_t last = caches.empty() ? 0 : caches.back().size_bytes;
    out.push_back(std::max<std::uint64_t>(8 * last, 64ull << 20));
    return out;
}

// The deepest level the point has bytes at: where its traffic comes from.
std::string bound_level(const std::map<std::string, double>& bytes) {
    std::string level = "L1";
    for (const auto& [name, b] : bytes)
        if (b > 0 && level_before(level, name)) level = name;
    return level;
}

// Memory the kernels may take without pushing the system into swap or the OOM killer: the
// kernel's MemAvailable estimate (/proc/meminfo), else the free pages.
double available_memory_bytes() {
    std::ifstream meminfo("/proc/meminfo");
    std::string key;
    double kib = 0;
    std::string unit;
    while (meminfo >> key >> kib >> unit)
        if (key == "MemAvailable:") return kib * 1024;
    return static_cast<double>(::sysconf(_SC_AVPHYS_PAGES)) * static_cast<double>(::sysconf(_SC_PAGESIZE));
}

// This executable: its version, size and modification time (another build measures anew).
std::string build_identity() {
    struct stat info {};
    const bool known = ::stat("/proc/self/exe", &info) == 0;
    return fmt::format("{} {}:{}", ROOFLINE_VERSION, known ? static_cast<long long>(info.st_size) : -1,
                       known ? static_cast<long long>(info.st_mtime) : -1);
}

// What makes a point the same measurement: the kernel, its size, the options that change the
// number, and (`setup`, made once) this build and this machine.
std::string cache_key(const ReferenceKernel& k, const KernelParams& params, std::int64_t n, const KernelsArgs& args,
                      const std::string& setup) {
    return fmt::format("kernels/1|{}{}|n={}|cache={}|stat={}|samples={}|threads={}|{}", k.name, params_label(params), n,
                       args.cache, args.stat, args.samples, args.threads, setup);
}

// A run on T threads: T times one thread's counts, over the slowest thread's time.
Point point_of(const ReferenceKernel& k, const KernelParams& params, const ReferenceRun& run,
               const std::vector<CacheLevel>& caches) {
    const double t = run.threads;
    const std::string kernel = k.name + params_label(params);
    Point p;
    p.name = fmt::format("{} {}{}", kernel, format_bytes(static_cast<std::uint64_t>(t * run.counts.working_set)),
                         run.threads > 1 ? fmt::format(" x{}t", run.threads) : std::string{});
    p.series = run.threads > 1 ? fmt::format("{} {} threads", kernel, run.threads) : kernel;
    p.work = t * run.counts.flops;
    p.bytes = bytes_by_level(run.counts, caches, run.threads);
    p.seconds = run.seconds;
    p.threads = run.threads;
    p.source = PointOrigin::kernel;
    p.details = {{"n", static_cast<double>(run.n)},  // per thread
                 {"working_set_bytes", t * run.counts.working_set},
                 {"bytes_loaded", t * run.counts.loaded},
                 {"bytes_stored", t * run.counts.stored},
                 {"memory_read_bytes", t * run.counts.memory_read},
                 {"memory_written_bytes", t * run.counts.memory_written},
                 {"write_allocate_bytes", t * run.counts.write_allocate},
                 {"samples", static_cast<double>(run.samples)},
                 {"calls_per_sample", static_cast<double>(run.calls_per_sample)},
                 {"seconds_fastest", run.fastest},
                 {"seconds_slowest", run.slowest}};
    for (const auto& [name, value] : k.resolved(params)) p.details["param_" + name] = static_cast<double>(value);
    for (const auto& [name, value] : run.details) p.details[name] = value;
    if (const double spill = working_set_over_cache(run.counts, caches, run.threads); spill > 0)
        p.details[kWorkingSetOverCache] = spill;
    return p;
}

void print_row(const std::string& kernel, const Point& p, bool quiet, const char* check) {
    if (quiet) return;
    const std::string level = bound_level(p.bytes);
    const auto detail = [&](const char* k) {
        const auto it = p.details.find(k);
        return it == p.details.end() ? 0.0 : it->second;
    };
    const double fastest = detail("seconds_fastest"), slowest = detail("seconds_slowest");
    // After a stop signal SIGPIPE is ignored (stop_signal.cpp): a reader gone with the terminal
    // (`| tee` over a dropped ssh connection) makes this throw, and the row is not worth the points.
    try {
        fmt::print("{:<20} {:>10} {:>12} {:>12.4g} {:>9.3g} {:>9.3g} {:>6} {:>7.1f}%  {}\n", kernel,
                   format_bytes(static_cast<std::uint64_t>(detail("working_set_bytes"))),
                   static_cast<long long>(detail("n")), p.seconds, p.work / p.seconds * 1e-9,
                   p.bytes.at(level) / p.seconds * 1e-9, level, fastest > 0 ? 100 * (slowest / fastest - 1) : 0.0, check);
        std::fflush(stdout);  // a row as soon as it is measured, also into a pipe
    } catch (const std::exception&) {
    }
}

// The points measured (and taken from the store) written to -o and the store, with how they
// were measured; the exit code. Called once, by the loop's end or by the watchdog after a signal.
int deliver_kernel_points(const std::vector<Point>& points, const std::vector<std::string>& keys, int from_cache,
                          int failed_checks, int skipped, bool interrupted, const StopSignal& stop,
                          const KernelsArgs& args, const ReferenceRunOptions& options, ResultsStore* store) {
    if (from_cache && !args.quiet)
        print_stderr("roofline: {} of {} point{} taken from the results store: measured before with the same kernel, "
                     "size, options, build and machine (--rerun measures them again)\n", from_cache, points.size(),
                     points.size() == 1 ? "" : "s");
    Provenance provenance = run_provenance(invocation_argv(), "kernels");
    provenance.runs = {"native"};
    provenance.engine = "analytic";
    const bool warm = options.cache == CacheMode::warm;
    provenance.options["statistic"] = fmt::format("{} of {} samples per point, {}", args.stat, args.samples,
                                                  warm ? "each at least 20 ms" : "each one call");
    provenance.options["threads"] =
        args.threads > 1 ? fmt::format("{}, pinned one per core, each on its own arrays (its share of the working set); "
                                       "a sample lasts until the slowest is done", args.threads)
                         : "1";
    provenance.options["caches"] =
        warm ? "warm: timed calls follow untimed ones over the same arrays"
             : fmt::format("{}: each timed call follows {}", args.cache,
                           options.cache == CacheMode::cold_data   ? "a clflush of every line of its arrays"
                           : options.cache == CacheMode::cold_code ? "8 MiB of other code run"
                                                                   : "a clflush of its arrays and 8 MiB of other code");
    provenance.options["bytes"] = "L1: the loop's loads and stores; below: the traffic, each array once and the write-allocate reads of "
                                  "stores to lines not read first (as the roofs below L1 count), at "
                                  "the levels the working set does not fit above; the write-allocate reads also in "
                                  "details.write_allocate_bytes";
    if (interrupted) provenance.options["interrupted"] = stop.signal_name();  // as measure's: the points before it
    PointDestinations to{args.output, nullptr,
                         fmt::format("{}{}", fmt::join(provenance.command, " "),
                                     interrupted ? fmt::format(" (interrupted by {}: partial)", stop.signal_name()) : ""),
                         "the points", args.quiet};
    if (store) to.store = [store] { return store; };
    to.cache_keys = &keys;
    const bool delivered = deliver_points(points, provenance, to);
    if (interrupted) {
        if (points.empty())
            print_stderr("roofline: interrupted by {} before any point was measured\n", stop.signal_name());
        else
            print_stderr("roofline: interrupted by {}: the {} point{} measured before it {} kept{}\n",
                         stop.signal_name(), points.size(), points.size() == 1 ? "" : "s",
                         points.size() == 1 ? "is" : "are", delivered ? ", marked partial" : " (see above for where)");
        return stop.exit_code();
    }
    return delivered && failed_checks == 0 && skipped == 0 ? kExitOk : kExitFailure;
}

int run_kernels(const KernelsArgs& args) {
    if (args.list) {
        print_list();
        return kExitOk;
    }
    std::vector<const RegisteredReferenceKernel*> kernels;  // each with its counts and its code
    for (const auto& name : args.names) {
        const auto* k = find_registered_reference_kernel(name);
        if (!k) {
            std::vector<std::string> all;
            for (const auto& r : reference_kernel_registry()) all.push_back(r.name());
            throw UsageError(fmt::format("no kernel '{}' (roofline kernels --list): {}", terminal_text(name),
                                         fmt::join(all, ", ")));
        }
        kernels.push_back(k);
    }
    if (kernels.empty())
        for (const auto& k : reference_kernel_registry()) kernels.push_back(&k);
    if (args.samples < 1 || args.samples > 1000) throw UsageError("--samples must be 1 to 1000");
    const auto topology = Topology::discover();
    const int cores = static_cast<int>(topology.cores().size());
    if (args.threads < 1 || args.threads > std::max(1, cores))
        throw UsageError(fmt::format("--threads must be 1 to {} (the cores of this machine)", std::max(1, cores)));
    // Default sizes from the checked caches: a guest reporting a 508 MiB L3 made
    // the default sweep run gigabytes for more than 15 minutes.
    const auto caches = checked_data_caches(topology, CacheProbe::when_doubtful);
    if (args.sizes.empty())
        for (const auto& c : caches)
            if (!c.finding.empty()) print_stderr("note: cache hierarchy: {}\n", c.finding);
    const ParamGrid grid = parse_param_grid(args.params, kernels);
    std::vector<std::pair<const RegisteredReferenceKernel*, KernelParams>> runs;  // checked before anything runs
    for (const auto* k : kernels)
        for (auto& params : param_sets(*k->kernel, grid)) runs.emplace_back(k, std::move(params));
    std::vector<std::uint64_t> sizes;
    try {
        sizes = args.sizes.empty() ? default_sizes(caches) : parse_size_sweep(args.sizes);
    } catch (const std::invalid_argument& e) {
        throw UsageError(fmt::format("--sizes: {}", e.what()));
    }
    // Destinations first: a sweep can take minutes.
    if (!args.output.empty()) check_writable(args.output);
    std::unique_ptr<ResultsStore> store;
    if (!args.no_store) {
        check_store_writable(args.db);
        store = ResultsStore::open_db_option(args.db);
    }
    ReferenceRunOptions options;
    options.samples = args.samples;
    options.median = args.stat == "median";
    options.cache = *parse_cache_mode(args.cache);  // checked by the option's validator

    std::vector<Point> points;
    std::vector<std::string> keys;  // per point: the measurement cache's key ("" for a cached one)
    int from_cache = 0;
    std::atomic<int> failed_checks{0}, skipped{0};  // read by the watchdog's delivery too
    // The loop appends under this lock; whichever thread delivers (the loop's end, or the
    // watchdog below after a signal) holds it, once.
    std::mutex results_mutex;
    bool delivered_once = false;
    std::set<std::string> done;
    const double available = available_memory_bytes();
    const char* max_isa = std::getenv("ROOFLINE_MAX_ISA");
    const std::string setup =
        fmt::format("build={}|host={}|cpu={}|max_isa={}", build_identity(), host_name(), detect_cpu_features().brand,
                    max_isa ? max_isa : "");  // it picks the code
    // One pinned worker per core; one thread runs on the calling thread, as before.
    std::unique_ptr<ThreadTeam> team;
    if (args.threads > 1) {
        team = std::make_unique<ThreadTeam>(topology, args.threads);
        if (!team->all_bound())
            print_stderr("roofline: warning: not every thread could be bound to its core: the OS places them\n");
    }
    // Ctrl-C, SIGTERM, SIGHUP: said at once; the sweep stops after the point being measured (the
    // watchdog below leaves it out after 2 s); a second signal writes what was measured at once.
    const StopSignal stop("stopping after the point being measured (at most 2 s more); the points measured so far "
                          "are kept and written; Ctrl-C again stops now and writes them",
                          StopSignal::Repeat::count,
                          "stopping now: writing the points measured so far (a fifth signal leaves at once, "
                          "unsaved)");
    if (!args.quiet)
        print_stderr("roofline kernels: {} kernel{} at {} size{}, {}, {} caches (Ctrl-C stops and keeps what was "
                     "measured)\n", kernels.size(), kernels.size() == 1 ? "" : "s", sizes.size(),
                     sizes.size() == 1 ? "" : "s",
                     args.threads > 1 ? fmt::format("{} threads, one per core, each on arrays of its own", args.threads)
                                      : std::string("one thread"),
                     args.cache);
    if (!args.quiet)
        fmt::print("{:<20} {:>10} {:>12} {:>12} {:>9} {:>9} {:>6} {:>8}  {}\n", "kernel", "working set", "n",
                   "s/call", "GFLOP/s", "GB/s", "at", "spread", "check");
    std::atomic<bool> loop_done{false};
    const std::function<int(bool)> deliver = [&](bool interrupted) -> int {
        std::lock_guard<std::mutex> lock(results_mutex);
        if (delivered_once) return kExitFailure;
        delivered_once = true;
        return deliver_kernel_points(points, keys, from_cache, failed_checks.load(), skipped.load(), interrupted,
                                     stop, args, options, store.get());
    };
    // A signal stops the sweep after the point being measured. One call of a kernel can last
    // minutes (a naive DGEMM out of cache): if the point has not ended 2 s after the signal, or
    // a second signal came, it is left out, what was measured is delivered from here, and the
    // process ends.
    std::thread watchdog([&] {
        while (!loop_done.load()) {
            if (stop.stopped()) {
                for (int i = 0; i < 20 && !loop_done.load() && stop.signals() < 2; ++i)
                    std::this_thread::sleep_for(std::chrono::milliseconds(100));
                if (loop_done.load()) return;
                if (stop.signals() >= 2)
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
            }
            std::this_thread::sleep_for(std::chrono::milliseconds(100));
        }
    });
    struct JoinAtExit {  // the loop may throw: the watchdog still ends and is joined
        std::atomic<bool>& done;
        std::thread& thread;
        ~JoinAtExit() {
            done = true;
            if (thread.joinable()) thread.join();
        }
    } join_watchdog{loop_done, watchdog};
    for (const auto& [entry, params] : runs) {
        const ReferenceKernel* k = entry->kernel;
        const std::string kernel = k->name + params_label(params);
        for (const auto bytes : sizes) {
            if (stop.stopped()) break;
            if (args.sizes.empty() && k->default_max_bytes > 0 && static_cast<double>(bytes) > k->default_max_bytes) {
                print_stderr("roofline: note: {} at {} left out: one call would take too long (give --sizes to "
                             "run it anyway)\n", kernel, format_bytes(bytes));
                continue;
            }
            if (!args.sizes.empty() && k->default_max_bytes > 0 && static_cast<double>(bytes) > k->default_max_bytes)
                print_stderr("roofline: note: {} at {}: one call may take minutes (the default sizes stop at {}); "
                             "Ctrl-C leaves it out and keeps the points measured\n",
                             kernel, format_bytes(bytes), format_bytes(static_cast<std::uint64_t>(k->default_max_bytes)));
            // The working set is the whole team's: each thread gets its share.
            const std::int64_t n = k->n_for_working_set(static_cast<double>(bytes) / args.threads, params);
            // A kernel named twice, or two sizes that come to the same n (the smallest runs): once.
            if (!done.insert(fmt::format("{} {}", kernel, n)).second) continue;
            const std::string key = cache_key(*k, params, n, args, setup);
            if (store && !args.rerun) {
                std::unique_lock<std::mutex> lock(results_mutex);  // the store is the watchdog's too
                if (auto cached = store->cached_point(key)) {
                    print_row(kernel, *cached, args.quiet, "ok, cached");
                    points.push_back(std::move(*cached));
                    keys.emplace_back();  // it stays remembered where it was first stored
                    ++from_cache;
                    continue;
                }
            }
            const double needs = args.threads * k->counts(n, params).working_set;
            if (needs > 0.9 * available) {
                print_stderr("roofline: error: {} at {}: its arrays need {}, and {} of memory is available; "
                             "skipped\n", kernel, format_bytes(bytes), format_bytes(static_cast<std::uint64_t>(needs)),
                             format_bytes(static_cast<std::uint64_t>(available)));
                ++skipped;
                continue;
            }
            ReferenceRun run;
            options.params = params;
            try {
                run = team ? run_reference_kernel(*entry, n, options, *team) : run_reference_kernel(*entry, n, options);
            } catch (const std::bad_alloc&) {
                print_stderr("roofline: error: {} at {}: not enough memory for its arrays; skipped\n", kernel,
                             format_bytes(bytes));
                ++skipped;
                continue;
            }
            Point p = point_of(*k, params, run, caches);
            if (!run.checked) {
                ++failed_checks;
                print_stderr("roofline: error: {} at n = {}: wrong result: {}\n", kernel, n, run.check_error);
            }
            print_row(kernel, p, args.quiet, run.checked ? "ok" : "WRONG");
            if (run.checked) {  // a wrong result is not a measurement
                std::lock_guard<std::mutex> lock(results_mutex);
                points.push_back(std::move(p));
                keys.push_back(key);
            }
        }
    }
    loop_done = true;
    if (watchdog.joinable()) watchdog.join();
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
        "fit above it. Caches warm (or --cache cold...); each point is the minimum (or median) of several\n"
        "samples; a point measured before with the same kernel, size, options, build and machine is taken\n"
        "from the results store unless --rerun.");
    cmd->add_option("names", args->names, "Kernels to run (default: all; see --list)");
    cmd->add_flag("--list", args->list, "List the kernels with their code and formulas, and exit");
    cmd->add_option("--sizes", args->sizes,
                    "Working-set sizes: a list (32K,1M,256M) or a sweep FROM..TO:xF (1K..1G:x2); default: half "
                    "of each cache level and 8x the last (at least 64 MiB)");
    cmd->add_option("--param", args->params,
                    "NAME=V1,V2,...: run the kernels that have parameter NAME at each value (repeat for a grid; "
                    "each combination is a series): atb_ours/atb_openblas m=8,16,32, spmv_random nnzr=4,16")
        ->type_name("NAME=LIST");
    cmd->add_option("--samples", args->samples, "Timed samples per point (default 5)")
        ->check(whole_number_check(1, 1000, "--samples must be 1 to 1000"));
    cmd->add_option("--threads", args->threads,
                    "Threads, pinned one per core, each running the kernel on arrays of its own (its share of the "
                    "working set), started together; a sample lasts until the slowest is done (default 1)");
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
    cmd->add_flag("--rerun", args->rerun,
                  "Measure every point again, even one the store holds from the same kernel, size, options, build "
                  "and machine (by default such a point is taken from the store, and said so)");
    add_quiet_flag(cmd, args->quiet);
    cmd->footer("Examples:\n"
                "  roofline kernels --list\n"
                "  roofline kernels stream_triad --sizes 1K..1G:x2 -o triad.json   a sweep through every level\n"
                "  roofline kernels sum_sp_scalar sum_sp_unrolled sum_sp_simd --sizes 16K\n"
                "  roofline plot --points triad.json -o triad.html");
    cmd->callback([args, &exit_code] { exit_code = run_kernels(*args); });
}

} // namespace roofline::cli
