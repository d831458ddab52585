#include "app/kernel_sweep.hpp"

#include "bench/thread_team.hpp"
#include "core/byte_sizes.hpp"
#include "core/closest_words.hpp"
#include "core/level.hpp"
#include "core/message_name.hpp"
#include "core/reference_kernels.hpp"
#include "io/install_layout.hpp"
#include "io/machine_json.hpp"
#include "io/results_store.hpp"
#include "topo/cpu_features.hpp"
#include "topo/environment.hpp"
#include "topo/topology.hpp"

#include <fmt/format.h>

#include <fnmatch.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <map>
#include <new>
#include <set>

namespace roofline::app {
namespace {

// --param NAME=V1,V2,...: each kernel that has NAME runs at every value; several make a grid.
// Kernels that do not have a parameter ignore it; a name no chosen kernel has is an error.
using ParamGrid = std::map<std::string, std::vector<std::int64_t>>;

ParamGrid parse_param_grid(const std::vector<std::string>& texts,
                           const std::vector<const RegisteredReferenceKernel*>& kernels,
                           std::vector<KernelParamValues>& repeated) {
    ParamGrid grid;
    for (const auto& text : texts) {
        // The text's own form, values and ranges (as the option is parsed, core's one parser).
        KernelParamValues given;
        try {
            given = parse_kernel_param(text);
        } catch (const std::invalid_argument& e) {
            throw RequestError(e.what());
        }
        const std::string& name = given.name;
        if (grid.count(name)) throw RequestError(fmt::format("--param {} is given twice", message_name(name)));
        // Which of the kernels chosen have it: the run's to check.
        const bool known = std::any_of(kernels.begin(), kernels.end(), [&](const RegisteredReferenceKernel* entry) {
            const auto& parameters = entry->kernel->parameters;
            return std::any_of(parameters.begin(), parameters.end(),
                               [&](const KernelParameter& p) { return p.name == name; });
        });
        if (!known) {
            std::string have;
            for (const auto& entry : reference_kernel_registry())
                for (const auto& p : entry.kernel->parameters)
                    have += fmt::format("{}{} ({})", have.empty() ? "" : ", ", p.name, entry.name());
            throw RequestError(fmt::format("--param {}: none of the kernels chosen has it (parameters: {})",
                                           message_name(name), have));
        }
        if (!given.repeated.empty()) repeated.push_back(given);
        grid[name] = std::move(given.values);
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
            throw RequestError(fmt::format("--param: {}", e.what()));
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

// What makes a point the same measurement: the kernel, its size, the options that change the
// number, and (`setup`, made once) this build and this machine.
std::string cache_key(const PlannedKernel& run, std::int64_t n, const KernelSweepRequest& r, const std::string& setup) {
    return fmt::format("kernels/1|{}|n={}|cache={}|stat={}|samples={}|threads={}|{}", run.label, n,
                       cache_mode_name(r.cache), r.median ? "median" : "min", r.samples, r.threads, setup);
}

} // namespace

KernelChoice choose_reference_kernels(const std::vector<std::string>& names) {
    const auto& registry = reference_kernel_registry();
    KernelChoice out;
    if (names.empty()) {
        for (const auto& k : registry) out.kernels.push_back(&k);
        return out;
    }
    std::vector<std::string> all;
    for (const auto& r : registry) all.push_back(r.name());
    std::map<const RegisteredReferenceKernel*, std::vector<std::string>> chosen_by;
    for (const auto& name : names) {
        std::vector<const RegisteredReferenceKernel*> matched;
        const bool pattern = name.find_first_of("*?[") != std::string::npos;
        for (const auto& k : registry)
            if (pattern ? ::fnmatch(name.c_str(), k.name().c_str(), 0) == 0 : k.name() == name) matched.push_back(&k);
        if (matched.empty()) {
            const auto close = pattern ? std::vector<std::string>{} : closest_words(name, all, 2);
            throw RequestError(fmt::format("{} '{}'{}; the kernels: {} ('roofline kernels --list' shows what each computes)",
                                           pattern ? "no kernel matches" : "no kernel", message_name(name),
                                           close.empty() ? "" : fmt::format(" (did you mean '{}'?)",
                                                                            fmt::join(close, "' or '")),
                                           fmt::join(all, ", ")));
        }
        for (const auto* k : matched) {
            auto& given = chosen_by[k];
            if (given.empty()) out.kernels.push_back(k);
            given.push_back(name);
        }
    }
    for (const auto* k : out.kernels)
        if (const auto& given = chosen_by[k]; given.size() > 1) out.repeated.push_back({k->name(), given});
    return out;
}

KernelSweepPlan plan_kernel_sweep(const KernelSweepRequest& request, int cores,
                                  const std::function<std::vector<CacheLevel>()>& caches,
                                  const std::function<void(const std::string&)>& cache_finding) {
    KernelSweepPlan plan;
    plan.request = request;
    KernelChoice choice = choose_reference_kernels(request.names);
    plan.kernels = std::move(choice.kernels);
    plan.repeated_kernels = std::move(choice.repeated);
    if (request.samples < 1 || request.samples > 1000) throw RequestError("--samples must be 1 to 1000");
    if (request.threads < 1 || request.threads > std::max(1, cores))
        throw RequestError(fmt::format("--threads must be 1 to {} (the cores of this machine)", std::max(1, cores)));
    // Default sizes from the checked caches: a guest reporting a 508 MiB L3 made the default
    // sweep run gigabytes for more than 15 minutes.
    plan.caches = caches();
    if (request.sizes.empty() && cache_finding)
        for (const auto& c : plan.caches)
            if (!c.finding.empty()) cache_finding(c.finding);
    const ParamGrid grid = parse_param_grid(request.params, plan.kernels, plan.repeated_params);
    for (const auto* k : plan.kernels)
        for (auto& params : param_sets(*k->kernel, grid)) {
            std::string label = k->kernel->name + params_label(params);
            plan.runs.push_back({k, std::move(params), std::move(label)});
        }
    std::vector<std::uint64_t> sizes;
    try {
        sizes = request.sizes.empty() ? default_sweep_sizes(plan.caches) : parse_size_sweep(request.sizes);
    } catch (const std::invalid_argument& e) {
        throw RequestError(fmt::format("--sizes: {}", e.what()));
    }
    // Each size once, in the order first given; a size given again is said (16K,16384 is one).
    // Default sizes of two levels alike (a guest's odd caches) are the machine's doing: not said.
    for (const auto bytes : sizes) {
        if (std::find(plan.sizes.begin(), plan.sizes.end(), bytes) == plan.sizes.end()) {
            plan.sizes.push_back(bytes);
            continue;
        }
        if (request.sizes.empty()) continue;
        const auto repeated = std::find_if(plan.repeated_sizes.begin(), plan.repeated_sizes.end(),
                                           [&](const RepeatedSize& r) { return r.bytes == bytes; });
        if (repeated == plan.repeated_sizes.end()) plan.repeated_sizes.push_back({bytes, 2});
        else ++repeated->times;
    }
    return plan;
}

std::vector<std::uint64_t> default_sweep_sizes(const std::vector<CacheLevel>& caches) {
    std::vector<std::uint64_t> out;
    for (const auto& c : caches)
        if (c.size_bytes > 0) out.push_back(c.size_bytes / 2);
    const std::uint64_t last = caches.empty() ? 0 : caches.back().size_bytes;
    out.push_back(std::max<std::uint64_t>(8 * last, 64ull << 20));
    return out;
}

Point kernel_point(const ReferenceKernel& k, const KernelParams& params, const ReferenceRun& run,
                   const std::vector<CacheLevel>& caches) {
    const double t = run.threads;
    const std::string kernel = k.name + params_label(params);
    // A cold point is another measurement than a warm one of the same kernel and size: its name
    // and series say so, on charts, in reports and in the store.
    const std::string cache =
        run.cache == CacheMode::warm ? std::string{} : fmt::format(" {}", cache_mode_name(run.cache));
    Point p;
    p.name = fmt::format("{} {}{}{}", kernel, format_bytes(static_cast<std::uint64_t>(t * run.counts.working_set)),
                         run.threads > 1 ? fmt::format(" x{}t", run.threads) : std::string{}, cache);
    p.series = (run.threads > 1 ? fmt::format("{} {} threads", kernel, run.threads) : kernel) + cache;
    p.work = t * run.counts.flops;
    // Flushed arrays come from memory whatever their size: the point is judged there.
    p.bytes = bytes_by_level(run.counts, caches, run.threads, data_cold(run.cache));
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
    // The precision of its FLOPs, as the measuring engines write it: report and plot judge a
    // point on its own precision's roofline (an sp kernel was judged on the dp one).
    if (p.work > 0) p.details[k.precision == "sp" ? "flops_f32" : "flops_f64"] = p.work;
    // The scalar sums' FLOPs are scalar adds by their code (reference_sums.cpp: no -ffast-math lets
    // the compiler reassociate them): said as an engine counts them, so that the advice reads their
    // chains (an add chain on 4 threads was told to fuse read-only passes, its chain unsaid).
    if (p.work > 0 && (k.id == ReferenceKernelId::sum_sp_scalar || k.id == ReferenceKernelId::sum_sp_unrolled)) {
        p.details["flops_by_width_scalar"] = p.work;
        p.details["flops_f32_add"] = p.work;
    }
    for (const auto& [name, value] : k.resolved(params)) p.details["param_" + name] = static_cast<double>(value);
    for (const auto& [name, value] : run.details) p.details[name] = value;
    if (const double spill = working_set_over_cache(run.counts, caches, run.threads); spill > 0)
        p.details[kWorkingSetOverCache] = spill;
    return p;
}

void describe_kernel_sweep(const KernelSweepRequest& r, Provenance& provenance) {
    provenance.runs = {"native"};
    provenance.engine = "analytic";
    const bool warm = r.cache == CacheMode::warm;
    provenance.options["statistic"] = fmt::format("{} of {} samples per point, {}", r.median ? "median" : "min",
                                                  r.samples, warm ? "each at least 20 ms" : "each one call");
    provenance.options["threads"] =
        r.threads > 1 ? fmt::format("{}, pinned one per core, each on its own arrays (its share of the working set); "
                                    "a sample lasts until the slowest is done", r.threads)
                      : "1";
    provenance.options["caches"] =
        warm ? "warm: timed calls follow untimed ones over the same arrays"
             : fmt::format("{}: each timed call follows {}", cache_mode_name(r.cache),
                           r.cache == CacheMode::cold_data   ? "a clflush of every line of its arrays"
                           : r.cache == CacheMode::cold_code ? "8 MiB of other code run"
                                                             : "a clflush of its arrays and 8 MiB of other code");
    provenance.options["bytes"] = fmt::format(
        "L1: the loop's loads and stores; below: the traffic, each array once and the write-allocate reads of "
        "stores to lines not read first (as the roofs below L1 count), at {}; the write-allocate reads also in "
        "details.write_allocate_bytes",
        data_cold(r.cache) ? "every level down to DRAM (the arrays are flushed before each timed call: they come "
                             "from memory whatever their size)"
                           : "the levels the working set does not fit above");
}

KernelSweep::KernelSweep(KernelSweepPlan plan, const Topology& topology, ResultsStore* store)
    : plan_(std::move(plan)), store_(store), available_bytes_(available_memory_bytes()) {
    const char* max_isa = std::getenv("ROOFLINE_MAX_ISA");  // it picks the code
    setup_ = fmt::format("build={}|host={}|cpu={}|max_isa={}", executable_identity(), host_name(),
                         detect_cpu_features().brand, max_isa ? max_isa : "");
    // One pinned worker per core; one thread runs on the calling thread.
    if (plan_.request.threads > 1) team_ = std::make_unique<ThreadTeam>(topology, plan_.request.threads);
}

KernelSweep::~KernelSweep() = default;

bool KernelSweep::all_threads_bound() const { return !team_ || team_->all_bound(); }

void KernelSweep::run(const std::atomic<bool>& stop, const KernelSweepProgress& progress) {
    const KernelSweepRequest& request = plan_.request;
    const bool default_sizes = request.sizes.empty();
    ReferenceRunOptions options;
    options.samples = request.samples;
    options.median = request.median;
    options.cache = request.cache;
    std::set<std::string> done;
    std::set<std::string> size_said;  // the kernels whose changed size was said (once each)
    const auto activity_before = take_cpu_activity_snapshot();
    for (const auto& planned : plan_.runs) {
        const ReferenceKernel* k = planned.entry->kernel;
        for (const auto bytes : plan_.sizes) {
            if (stop) break;
            KernelSweepStep step;
            step.kernel = planned.label;
            step.bytes = bytes;
            step.max_bytes = k->default_max_bytes;
            const bool long_calls = k->default_max_bytes > 0 && static_cast<double>(bytes) > k->default_max_bytes;
            if (long_calls && default_sizes) {
                step.kind = KernelSweepStep::Kind::left_out;
                progress(step);
                continue;
            }
            // The working set is the whole team's: each thread gets its share.
            step.n = k->n_for_working_set(static_cast<double>(bytes) / request.threads, planned.params);
            // A kernel named twice, or two sizes that come to the same n (the smallest runs): once.
            if (!done.insert(fmt::format("{} {}", planned.label, step.n)).second) continue;
            // A size more than a tenth from the one asked is said (once a kernel): 1 KiB of triad
            // ran as 1.5 KiB, and atb m=32 at 24 KiB as 40 KiB (in L2, not L1).
            const double used = request.threads * k->counts(step.n, planned.params).working_set;
            if (std::abs(used / static_cast<double>(bytes) - 1) > 0.1 && size_said.insert(planned.label).second) {
                KernelSweepStep said = step;
                said.kind = KernelSweepStep::Kind::size_changed;
                said.used_bytes = used;
                said.smallest = step.n == k->n_for_working_set(1, planned.params);
                progress(said);
            }
            const std::string key = cache_key(planned, step.n, request, setup_);
            if (store_ && !request.rerun) {
                std::lock_guard<std::mutex> lock(mutex_);  // the store is the watcher's too
                std::optional<Point> cached;
                try {
                    cached = store_->cached_point(key);
                } catch (const SchemaError& e) {
                    // A damaged stored set stopped the whole sweep; the point is measured again, and
                    // stored under its key anew.
                    KernelSweepStep said = step;
                    said.kind = KernelSweepStep::Kind::cache_unreadable;
                    said.check_error = e.what();
                    progress(said);
                }
                if (cached) {
                    step.kind = KernelSweepStep::Kind::cached;
                    step.point = &*cached;
                    progress(step);
                    result_.points.push_back(std::move(*cached));
                    result_.keys.emplace_back();  // it stays remembered where it was first stored
                    ++result_.from_cache;
                    continue;
                }
            }
            // Said only of a call that will run: a point taken from the store takes no time.
            if (long_calls) {
                step.kind = KernelSweepStep::Kind::long_calls_ahead;
                progress(step);
            }
            step.needs_bytes = request.threads * k->counts(step.n, planned.params).working_set;
            step.available_bytes = available_bytes_;
            if (step.needs_bytes > 0.9 * available_bytes_) {
                step.kind = KernelSweepStep::Kind::no_memory;
                progress(step);
                std::lock_guard<std::mutex> lock(mutex_);
                ++result_.skipped;
                continue;
            }
            ReferenceRun run;
            options.params = planned.params;
            try {
                run = team_ ? run_reference_kernel(*planned.entry, step.n, options, *team_)
                            : run_reference_kernel(*planned.entry, step.n, options);
            } catch (const std::bad_alloc&) {
                step.kind = KernelSweepStep::Kind::allocation_failed;
                progress(step);
                std::lock_guard<std::mutex> lock(mutex_);
                ++result_.skipped;
                continue;
            }
            Point p = kernel_point(*k, planned.params, run, plan_.caches);
            step.kind = run.checked ? KernelSweepStep::Kind::measured : KernelSweepStep::Kind::wrong_result;
            step.point = &p;
            step.check_error = run.check_error;
            progress(step);
            std::lock_guard<std::mutex> lock(mutex_);
            if (!run.checked) {  // a wrong result is not a measurement
                ++result_.failed_checks;
                continue;
            }
            result_.points.push_back(std::move(p));
            result_.keys.push_back(key);
        }
    }
    const auto activity_after = activity_before ? take_cpu_activity_snapshot(*activity_before) : std::nullopt;
    std::lock_guard<std::mutex> lock(mutex_);
    result_.interrupted = stop;
    if (activity_before && activity_after) result_.activity = cpu_activity_between(*activity_before, *activity_after);
}

} // namespace roofline::app
