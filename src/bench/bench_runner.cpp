#include "bench/bench_runner.hpp"

#include "bench/cache_probe.hpp"
#include "bench/compute_bench.hpp"
#include "bench/isa_support.hpp"
#include "bench/core_sharing_canary.hpp"
#include "bench/memory_bench.hpp"
#include "bench/numa_bench.hpp"
#include "bench/roof_limit_guard.hpp"
#include "bench/task_clock.hpp"
#include "bench/thread_team.hpp"
#include "bench/validation_bench.hpp"
#include "core/cache_check.hpp"
#include "core/peak.hpp"
#include "core/roof_consistency.hpp"
#include "topo/clock.hpp"
#include "topo/cpu_features.hpp"
#include "topo/cpu_activity.hpp"
#include "topo/environment.hpp"

#include <fmt/core.h>
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <memory>
#include <stdexcept>
#include <tuple>

namespace roofline {
namespace {

// About what the hierarchy probe takes (more where page faults are slow).
constexpr double kProbeSeconds = 1.5;

std::vector<int> resolved_thread_counts(const Topology& topology, const BenchOptions& options) {
    std::vector<int> counts = options.thread_counts;
    const int cores = static_cast<int>(topology.cores().size());
    if (counts.empty()) counts = cores > 1 ? std::vector<int>{1, cores} : std::vector<int>{1};
    std::sort(counts.begin(), counts.end());
    counts.erase(std::unique(counts.begin(), counts.end()), counts.end());
    return counts;
}

} // namespace

// A private cache's bandwidth should grow with the thread count. When it does
// not, the "cores" were sharing one physical core (SMT siblings, or vCPUs the
// hypervisor placed together) while the all-thread figures were measured.
// Per-core resources (compute pipes, private caches) scale with the threads on
// separate cores; a team figure well short of it was measured while the cores
// were seldom quiet together, and is likely low. A 1-thread figure well under its
// share of a team's was measured while its core was seldom quiet: one core does
// not do less alone than in a team.
namespace {

// Each pair of a per-core resource's team figure and its 1-thread figure (a private cache's
// bandwidth of one pattern, a precision's peak): visit(what, many value, one value, threads,
// many stats, one stats), const or not as the model is.
template <typename Model, typename Visit>
void per_core_pairs(Model& model, Visit visit) {
    for (const auto& cache : model.caches) {
        if (cache.shared_by_cores != 1) continue;
        const std::string level = fmt::format("L{}", cache.level);
        for (auto& many : model.memory) {
            if (many.level != level || many.threads < 2) continue;
            for (auto& one : model.memory)
                if (one.level == level && one.pattern == many.pattern && one.threads == 1)
                    visit(fmt::format("{} {} bandwidth", level, many.pattern), many.gbs, one.gbs, many.threads,
                          many.stats, one.stats);
        }
    }
    for (auto& many : model.compute) {
        if (many.threads < 2 || many.mix != "best") continue;
        for (auto& one : model.compute)
            if (one.mix == "best" && one.precision == many.precision && one.threads == 1)
                visit(fmt::format("{} peak", many.precision), many.gflops, one.gflops, many.threads, many.stats,
                      one.stats);
    }
}

} // namespace

std::vector<std::string> per_core_scaling_warnings(const MachineModel& model, double shortfall) {
    std::vector<std::string> warnings;
    per_core_pairs(model, [&](const std::string& what, double many, double one, int threads, const Stats&,
                              const Stats&) {
        if (short_of_scaling(many, one, threads, shortfall))
            warnings.push_back(fmt::format(
                "{} reached only {:.2f}x its 1-thread figure with {} threads on per-core resources: the cores were "
                "seldom quiet together (another tenant, SMT siblings or co-scheduled vCPUs), so it is likely low; "
                "rerun to confirm",
                what, many / one, threads));
        else if (short_of_team(one, many, threads, shortfall))
            warnings.push_back(fmt::format(
                "{} with 1 thread reached only {:.2f}x its share of the {}-thread figure ({:.1f} against {:.1f} / {}) "
                "on per-core resources: one core does not do less alone than in a team, so its core was seldom quiet "
                "while it was measured (another tenant or a co-scheduled vCPU) and it is likely low; rerun to confirm",
                what, one * threads / many, threads, one, many, threads));
    });
    return warnings;
}

int mark_per_core_shortfalls_unstable(MachineModel& model, double shortfall) {
    int marked = 0;
    const auto mark = [&](Stats& s) {
        marked += s.stable;
        s.stable = false;
    };
    per_core_pairs(model, [&](const std::string&, double many, double one, int threads, Stats& many_stats,
                              Stats& one_stats) {
        if (short_of_scaling(many, one, threads, shortfall)) mark(many_stats);
        else if (short_of_team(one, many, threads, shortfall)) mark(one_stats);
    });
    return marked;
}

// Why a figure is not called stable: a single burst cannot be told from a
// moment of interference; several that disagree say the host was noisy.
std::string unsettled_figure_warning(const std::string& name, const Stats& stats) {
    if (stats.bursts < 2)
        return fmt::format("unconfirmed figure: {} (one burst of {} runs, CV {:.1f}%; a second burst at another "
                           "moment of the run confirms a roof: a longer --time-budget gives it)",
                           name, stats.runs, 100 * stats.cv);
    return fmt::format("unstable figure: {} ({} bursts, CV {:.1f}% over {} runs): the bursts' best disagree by more "
                       "than 2%, a team's fall short of its threads x one thread, or one thread's of its share of a "
                       "team",
                       name, stats.bursts, 100 * stats.cv, stats.runs);
}

std::vector<std::string> roof_sanity_warnings(const MachineModel& model) {
    std::vector<std::string> warnings;
    for (const auto& r : model.compute) {
        if (r.theoretical_gflops > 0 && r.gflops > (1 + kTheoryTolerance) * r.theoretical_gflops)
            warnings.push_back(fmt::format("{}: measured {:.1f} GFLOP/s is {:.0f}% of the theoretical {:.1f}: the "
                                           "microarchitecture table or the clock is wrong for this CPU",
                                           r.name, r.gflops, 100 * r.gflops / r.theoretical_gflops,
                                           r.theoretical_gflops));
        if (r.stats.cores_shared)
            warnings.push_back(fmt::format("{}: no burst found the threads on separate cores; the figure is what "
                                           "threads sharing cores reach, not the roof (rerun when the host is quieter)",
                                           r.name));
    }
    for (const auto& r : model.memory) {
        if (r.theoretical_gbs > 0 && r.gbs > (1 + kTheoryTolerance) * r.theoretical_gbs)
            warnings.push_back(fmt::format("{} {} {} threads: measured {:.1f} GB/s is {:.0f}% of the theoretical "
                                           "{:.1f}: the microarchitecture table or the clock is wrong for this CPU",
                                           r.level, r.pattern, r.threads, r.gbs, 100 * r.gbs / r.theoretical_gbs,
                                           r.theoretical_gbs));
        if (r.stats.cores_shared)
            warnings.push_back(fmt::format("{} {} {} threads: no burst found the threads on separate cores; the "
                                           "figure is what threads sharing cores reach, not the roof",
                                           r.level, r.pattern, r.threads));
    }
    return warnings;
}

void validate_bench_options(const Topology& topology, const BenchOptions& options) {
    const int cores = static_cast<int>(topology.cores().size());
    for (int t : options.thread_counts) {
        if (t < 1)
            throw BenchOptionError(BenchSetting::threads, fmt::format("a thread count must be at least 1 (got {})", t));
        if (t > cores)
            throw BenchOptionError(BenchSetting::threads,
                                   fmt::format("{} threads is more than the {} cores of this machine (threads are "
                                               "pinned one per core)",
                                               t, cores));
    }
    for (const auto& p : options.precisions)
        if (p != "dp" && p != "sp")
            throw BenchOptionError(BenchSetting::precision, "unknown precision '" + p + "' (use dp or sp)");
    if (options.mode == BenchMode::spec)
        throw BenchOptionError(BenchSetting::mode, "a spec sheet is written, not measured");
    const double budget = options.time_budget_seconds;
    if (budget < 0)
        throw BenchOptionError(BenchSetting::time_budget,
                               fmt::format("the time budget must not be negative (got {:g})", budget));
    if (!(budget <= max_time_budget_seconds))  // nan and inf too
        throw BenchOptionError(BenchSetting::time_budget,
                               fmt::format("the time budget must be a number of seconds from 0 (the mode's "
                                           "default) to a week, {:g} (got {:g})",
                                           max_time_budget_seconds, budget));
    for (const auto& p : options.patterns)
        if (!memory_kernel_for(p, BenchOptions{}))
            throw BenchOptionError(BenchSetting::pattern,
                                   "unknown memory pattern '" + p +
                                       "' (load, store, copy, triad, 2ld1st, store_nt, copy_nt, triad_nt)");
    if (!options.compute && !options.memory) throw BenchOptionError(BenchSetting::parts, "nothing to measure");
    if (options.validate && !(options.compute && options.memory))
        throw BenchOptionError(BenchSetting::validate,
                               "validation needs both the compute and the memory roofs (measure both parts)");
}

namespace {

// What a group of thread counts needs to be measured together, and what it tallies.
struct GroupContext {
    const Topology& topology;
    const BenchOptions& options;
    const std::vector<int>& thread_counts;
    const std::vector<ComputeFamily>& families;
    const std::vector<std::vector<MemoryTask>>& memory_tasks;
    const std::optional<Microarch>& microarch;
    double clock_ghz;  // measured before the run
    const BurstPolicy& policy;
    std::vector<ClockReading>& clock_readings;  // the clock read again next to roofs above their limit
    std::vector<ComputeChoice>& compute_choices;
    MemoryChoices& memory_choices;
    int& canary_checks;
    int& canary_failures;
};

// A roof above its limit at the clock measured before the run: the clock read again right then,
// and its kernel (`figure`) timed once more between two readings (roof_limit_guard.hpp). True
// when the roof is kept, its theoretical figure then at the clock read next to it when that
// explains it; a refused roof's reason goes to the model's refused list.
bool keep_within_limit(const std::string& name, const char* unit, double measured, double& theoretical,
                       double& theoretical_clock_ghz, std::string& theoretical_clock, Figure* figure,
                       ThreadTeam& team, GroupContext& g, TaskClock& clock, MachineModel& model) {
    RoofLimitProbe probe;
    bool announced = false;
    probe.read_clock_ghz = [&] {
        if (!announced)
            clock.announce(name + ": above its limit at the clock before the run; reading the clock again");
        announced = true;
        // Every core of the team at once, as the roof ran: the team's limit is the sum of its cores'
        // clocks x the per-core figure, i.e. the cores x their mean clock, and the host may clock a
        // guest's cores apart (the run's reading is core 0's alone). Each reading is a high
        // quantile of short samples, so a core preempted now and then does not pull it down.
        std::vector<double> ghz(static_cast<std::size_t>(team.size()), 0.0);
        team.run([&](int i) { ghz[static_cast<std::size_t>(i)] = plausible_clock_ghz(measure_core_clock(0.1).ghz); });
        if (std::any_of(ghz.begin(), ghz.end(), [](double g) { return !(g > 0); })) return 0.0;
        double sum = 0;
        for (double g : ghz) sum += g;
        return sum / static_cast<double>(ghz.size());
    };
    if (team.size() > 1)
        probe.reading_how = fmt::format(" (on each of its {} cores at once, their mean)", team.size());
    if (figure) probe.retime = [&] {
        clock.announce(name + ": timed once more, next to the clock read again");
        return time_figure_once(*figure, g.policy, clock);
    };
    const RoofLimitVerdict v =
        guard_roof_limit({name, unit, measured, theoretical, g.clock_ghz, "measured before the run"}, probe);
    for (double ghz : v.clocks_read) g.clock_readings.push_back({ghz, "next to " + name});
    if (!v.accepted) {
        model.environment.refused.push_back(v.refusal);
        return false;
    }
    if (v.remeasured) {
        theoretical = v.limit;
        theoretical_clock_ghz = v.clock_ghz;
        theoretical_clock = v.clock_note;
        model.environment.warnings.push_back(name + ": " + v.clock_note + "; kept");
    }
    return true;
}

std::string memory_roof_name(const MemoryRoof& r) {
    return fmt::format("{} {} {} thread{}", r.level, r.pattern, r.threads, r.threads > 1 ? "s" : "");
}

// The thread counts [first, last) measured in one schedule: every figure of the group is sampled
// together, so each figure's bursts spread over the whole group's time, interleaved with all the
// others. Their roofs, curves, validation and warnings go into `model`.
void measure_thread_group(GroupContext& g, std::size_t first, std::size_t last, TaskClock& clock, MachineModel& model) {
    const auto& [topology, options, thread_counts, families, memory_tasks, microarch, clock_ghz, policy, clock_readings,
                 compute_choices, memory_choices, canary_checks, canary_failures] = g;
    struct Setup {
        std::unique_ptr<ThreadTeam> team;
        std::unique_ptr<CoreSharingCanary> canary;
        std::unique_ptr<ComputePhase> compute;
        std::unique_ptr<MemoryPhase> memory;
    };
    std::vector<Setup> group;
    std::vector<Figure*> figures;
    for (std::size_t i = first; i < last && !clock.stopped(); ++i) {
        Setup s;
        s.team = std::make_unique<ThreadTeam>(topology, thread_counts[i]);
        if (!s.team->all_bound())
            model.environment.warnings.push_back(
                fmt::format("could not pin {} threads to cores; figures may vary", thread_counts[i]));
        // Only a team of several threads can find its threads on one core.
        CoreCheck check;
        if (s.team->size() > 1) {
            s.canary = std::make_unique<CoreSharingCanary>(*s.team, *canary_kernel());
            check = [canary = s.canary.get()] { return canary->cores_separate(); };
        }
        s.compute = std::make_unique<ComputePhase>(*s.team, families, compute_choices, microarch, clock);
        s.memory = std::make_unique<MemoryPhase>(*s.team, memory_tasks[i], memory_choices, clock);
        for (auto* phase_figures : {&s.compute->figures(), &s.memory->figures()})
            for (auto& f : *phase_figures) {
                f.check = check;
                figures.push_back(&f);
            }
        group.push_back(std::move(s));
    }
    sample_figures_in_bursts(figures, policy, clock);
    for (auto& s : group)
        for (auto& r : s.compute->roofs(microarch, clock_ghz))
            if (keep_within_limit(r.name, "GFLOP/s", r.gflops, r.theoretical_gflops, r.theoretical_clock_ghz,
                                  r.theoretical_clock, s.compute->figure_of(r), *s.team, g, clock, model))
                model.compute.push_back(r);
    // Memory roofs that contradict each other (a team far below fewer
    // threads, one pattern far below the others) are sampled again once;
    // what still contradicts is flagged.
    const auto memory_roofs = [&] {
        std::vector<MemoryRoof> roofs;
        std::vector<BandwidthCurve> curves;
        for (auto& s : group) s.memory->roofs(microarch, clock_ghz, roofs, curves);
        return std::make_pair(roofs, curves);
    };
    auto [roofs, curves] = memory_roofs();
    if (const auto suspects = inconsistent_memory_roofs(roofs); !suspects.empty() && !clock.stopped()) {
        std::vector<Figure*> again;
        for (const auto& suspect : suspects) {
            const MemoryRoof& r = roofs[suspect.index];
            for (auto& s : group)
                if (s.team->size() == r.threads)
                    for (Figure* f : s.memory->reset_figures_of(r.level, r.pattern)) again.push_back(f);
        }
        BurstPolicy retry = policy;
        retry.budget_seconds = std::min(policy.budget_seconds, 2.0);
        clock.announce("sampling again the memory figures that contradict the others");
        sample_figures_in_bursts(again, retry, clock);
        std::tie(roofs, curves) = memory_roofs();
        for (const auto& suspect : inconsistent_memory_roofs(roofs)) {
            const MemoryRoof& r = roofs[suspect.index];
            model.environment.warnings.push_back(fmt::format(
                "{} {} {} thread{}: {} (sampled again, same result): flagged, likely low; rerun when the "
                "host is quieter",
                r.level, r.pattern, r.threads, r.threads > 1 ? "s" : "", suspect.reason));
        }
    }
    for (auto& r : roofs) {
        Setup* setup = nullptr;
        for (auto& s : group)
            if (s.team->size() == r.threads) setup = &s;
        if (!setup) continue;  // every roof comes from a team of the group
        if (keep_within_limit(memory_roof_name(r), "GB/s", r.gbs, r.theoretical_gbs, r.theoretical_clock_ghz,
                              r.theoretical_clock, setup->memory->figure_of(r), *setup->team, g, clock, model))
            model.memory.push_back(r);
    }
    model.curves.insert(model.curves.end(), curves.begin(), curves.end());
    for (auto& s : group) {
        if (options.validate) {
            CoreCheck check;
            if (s.canary) check = [canary = s.canary.get()] { return canary->cores_separate(); };
            run_validation(*s.team, model, clock, policy, check, model.validation);
        }
        if (!s.canary) continue;
        canary_checks += s.canary->checks();
        canary_failures += s.canary->failures();
    }
}

// After the roofs: the clock measured again; theoretical figures not re-measured next to their
// roof at the higher of the clocks before and after; roofs above the hardware's limit refused
// (those of the groups were judged there, roof_limit_guard), and the warnings every figure's
// checks give. `readings`: the clock read again during the run.
void finish_model(const Topology& topology, const std::optional<Microarch>& microarch, const BurstPolicy& policy,
                  double clock_before_ghz, std::vector<ClockReading> readings, MachineModel& model) {
    topology.bind_current_thread_to_core(0);
    ClockMeasurement clock_after = measure_core_clock(0.1);
    clock_after.ghz = plausible_clock_ghz(clock_after.ghz);
    model.environment.clock_after_ghz = clock_after.ghz;
    const bool remeasured = !readings.empty();
    readings.insert(readings.begin(), {clock_before_ghz, "before the run"});
    readings.push_back({clock_after.ghz, "after the run"});
    if (remeasured) {
        if (auto w = clock_spread_warning(readings); !w.empty()) model.environment.warnings.push_back(std::move(w));
    } else {
        for (auto& w : clock_drift_warning(clock_before_ghz, clock_after.ghz)) model.environment.warnings.push_back(w);
    }
    // A theoretical figure is a ceiling: at the higher of the two clocks, so a core that sped up
    // during the run is not shown above its own theory. A roof judged at a clock read next to it
    // keeps that one.
    const double theory_ghz = std::max(clock_before_ghz, clock_after.ghz);
    const double factor = clock_before_ghz > 0 ? theory_ghz / clock_before_ghz : 1;
    const std::string source = clock_after.ghz > clock_before_ghz
                                   ? "measured before and after the run, the higher"
                                   : "measured before the run";
    const auto at_run_clock = [&](double& theoretical, double& clock_ghz, std::string& which) {
        if (!(theoretical > 0) || clock_ghz > 0) return;
        theoretical *= factor;
        clock_ghz = theory_ghz;
        which = source;
    };
    for (auto& r : model.compute) at_run_clock(r.theoretical_gflops, r.theoretical_clock_ghz, r.theoretical_clock);
    for (auto& r : model.memory) at_run_clock(r.theoretical_gbs, r.theoretical_clock_ghz, r.theoretical_clock);
    // No clock before the run (plausible_clock_ghz refused it): no theoretical figure was made.
    if (microarch && clock_before_ghz > 0)
        model.environment.warnings.push_back(
            "theoretical figures assume " + microarch->fp.description +
            fmt::format(" at {:.2f} GHz on every core, the clock {} ({}){}", theory_ghz, source, microarch->source,
                        remeasured ? "; a roof that came out above that at the clock before the run is judged at "
                                     "the clock read again next to it (its note or its refusal gives the readings)"
                                   : ""));
    // A roof the hardware cannot reach is not stored; the run says so and fails.
    for (auto& why : refuse_roofs_above_theory(model)) model.environment.refused.push_back(std::move(why));
    for (auto& why : refuse_outer_levels_faster_than_inner(model)) model.environment.refused.push_back(std::move(why));
    for (auto& w : roof_sanity_warnings(model)) model.environment.warnings.push_back(w);
    for (auto& w : roofs_against_cache_probe(model)) model.environment.warnings.push_back(std::move(w));
    for (const auto& r : model.compute)
        if (!r.stats.stable && !r.stats.cores_shared)
            model.environment.warnings.push_back(unsettled_figure_warning(r.name, r.stats));
    for (const auto& r : model.memory)
        if (!r.stats.stable && !r.stats.cores_shared)
            model.environment.warnings.push_back(unsettled_figure_warning(memory_roof_name(r), r.stats));
    for (auto& w : per_core_scaling_warnings(model, policy.scaling_shortfall)) model.environment.warnings.push_back(w);
    // The figures those warnings call likely low are recorded as not stable (after the warnings
    // above, which say so once): compare and history then do not judge them.
    mark_per_core_shortfalls_unstable(model, policy.scaling_shortfall);
}

} // namespace

MachineModel run_bench(const Topology& topology, const BenchOptions& options, const ProgressSink& progress,
                       const std::atomic<bool>& stop) {
    validate_bench_options(topology, options);
    const auto started = std::chrono::steady_clock::now();
    const auto activity_before = take_cpu_activity_snapshot();
    const CpuFeatures features = detect_cpu_features();
    MachineModel model;
    model.cpu = topology.cpu();
    const int cores = static_cast<int>(topology.cores().size());
    model.environment = collect_environment(features, cores);
    if (!topology.restricted_to().empty()) model.environment.warnings.push_back(topology.restricted_to());
    model.environment.mode = options.mode;
    {
        // Roofs of some kernels only are true figures, but not the machine's best: said, so that no
        // one judges other code against them unawares (model_completeness.hpp).
        std::vector<std::string> kept;
        if (!options.isa.empty()) kept.push_back("--isa " + options.isa);
        if (!options.kernels.empty()) kept.push_back(fmt::format("--kernel {}", fmt::join(options.kernels, ", ")));
        if (const std::string cap = isa_cap_in_force(); !cap.empty()) kept.push_back(cap);
        model.environment.restricted_to = fmt::format("{}", fmt::join(kept, "; "));
    }

    topology.bind_current_thread_to_core(0);
    ClockMeasurement clock_before = measure_core_clock(0.1);
    std::string implausible;
    clock_before.ghz = plausible_clock_ghz(clock_before.ghz, &implausible);
    if (!implausible.empty()) model.environment.warnings.push_back(implausible);
    model.cpu.clock_ghz = clock_before.ghz;
    model.environment.clock_before_ghz = clock_before.ghz;
    const MicroarchLookup lookup = identify_microarch({features.vendor, features.family, features.model, features.names()});
    const std::optional<Microarch>& microarch = lookup.arch;
    if (!lookup.note.empty()) model.environment.warnings.push_back(lookup.note);
    if (microarch) {
        model.environment.microarchitecture = microarch->name;
    } else if (lookup.note.empty()) {
        model.environment.warnings.push_back(fmt::format(
            "theoretical figures unknown: {} family {:#x} model {:#x} is not in the microarchitecture table",
            features.vendor, features.family, features.model));
    }
    BurstPolicy policy;
    const auto thread_counts = resolved_thread_counts(topology, options);
    const auto families = options.compute ? plan_compute_families(options) : std::vector<ComputeFamily>{};
    // How many figures the plan has with these caches, and the time the plan
    // should take: every figure half way from its minimum of bursts to its
    // maximum (on a shared host many go on), about twice their sampling time with
    // warm-ups, core checks, calibration and ISA trials.
    std::vector<std::vector<MemoryTask>> memory_tasks;
    const auto plan = [&](const std::vector<CacheLevel>& caches) {
        memory_tasks.clear();
        int tasks = count_compute_tasks(families, static_cast<int>(thread_counts.size()));
        for (int t : thread_counts) {
            memory_tasks.push_back(options.memory ? plan_memory_tasks(options, caches, t) : std::vector<MemoryTask>{});
            tasks += static_cast<int>(memory_tasks.back().size());
        }
        tasks += count_numa_tasks(topology, options);
        if (options.validate) tasks += static_cast<int>(thread_counts.size()) * count_validation_tasks(4);
        return tasks;
    };
    const auto expected_seconds = [&](int tasks) {
        return tasks * 0.5 * (policy.min_bursts + policy.max_bursts) * policy.burst_seconds * 2.0;
    };
    // The caches as the machine reports them, checked against the table and,
    // before any memory figure, against where one thread's load curve drops.
    if (options.memory && progress) {
        const int guess = plan(check_cache_hierarchy(topology.data_caches(), microarch));
        progress({"probing where each cache level ends (1 thread, load)", 0, guess, 0,
                  kProbeSeconds + expected_seconds(guess)});
    }
    model.caches = checked_data_caches(topology, options.memory ? CacheProbe::always : CacheProbe::when_doubtful,
                                       &model.cache_probe, &stop);
    for (const auto& c : model.caches)
        if (!c.finding.empty())
            model.environment.warnings.push_back(
                "cache hierarchy: " + c.finding +
                (c.doubtful ? " (nothing measured settles it: working sets and the cache simulation use the "
                              "reported size)"
                            : ""));
    model.environment.statistic = fmt::format(
        "each roof is the {:.0f}th percentile of the best samples of its bursts (bursts of about {:.0f} ms of "
        "samples: 0.5 ms for compute and private caches, 2 ms for shared caches and DRAM, whole passes for NUMA), "
        "interleaved with every other figure over the run ({}-{} bursts, more while the best two disagree, a team "
        "falls short of its threads x one thread, or one thread of its share of the team); all-thread bursts are kept only when a compute canary before and "
        "after shows the threads on separate cores and within 12% of their best speed",
        100 * policy.quantile, policy.burst_seconds * 1e3, policy.min_bursts, policy.max_bursts);

    const int total = plan(model.caches);
    // The validation sweep comes on top of the roofs: it gets as much time
    // again, so the roofs it is compared with are not measured in less.
    const double budget = options.time_budget_seconds > 0
                              ? options.time_budget_seconds
                              : default_time_budget(options.mode) * (options.validate ? 2 : 1);
    TaskClock clock(progress, stop, total, budget);
    clock.expect_seconds(expected_seconds(total));

    // Thread counts are measured in groups of up to two (the default 1 and all
    // cores form one): every figure of a group is sampled in one schedule, so
    // each figure's bursts spread over the whole group's time, interleaved with
    // all the others. Larger sweeps go group by group to bound memory and threads.
    std::vector<ComputeChoice> compute_choices;
    MemoryChoices memory_choices;
    int canary_checks = 0, canary_failures = 0;
    std::vector<ClockReading> clock_readings;
    constexpr std::size_t kGroup = 2;
    GroupContext context{topology,       options,        thread_counts,   families,      memory_tasks,
                         microarch,      clock_before.ghz, policy,        clock_readings, compute_choices,
                         memory_choices, canary_checks,  canary_failures};
    for (std::size_t first = 0; first < thread_counts.size() && !clock.stopped(); first += kGroup)
        measure_thread_group(context, first, std::min(thread_counts.size(), first + kGroup), clock, model);
    if (canary_failures > 0)
        model.environment.warnings.push_back(fmt::format(
            "{} of {} core checks found the threads sharing a physical core (co-scheduled vCPUs or SMT siblings) "
            "or slower than their best by more than 12% (a core partly lent elsewhere); bursts measured then were "
            "set aside",
            canary_failures, canary_checks));
    run_numa_tasks(topology, options, options.dram_bytes ? options.dram_bytes : default_dram_bytes(model.caches), clock,
                   model.memory);
    add_best_compute_roofs(model.compute);

    finish_model(topology, microarch, policy, clock_before.ghz, clock_readings, model);
    if (!options.isa.empty() && !clock.stopped()) {
        ThreadTeam one(topology, 1);
        for (auto& note : register_count_checks(one, model.compute, microarch, clock))
            model.environment.warnings.push_back(note);
    }
    model.partial = stop.load();
    if (const auto activity_after = activity_before ? take_cpu_activity_snapshot(*activity_before) : std::nullopt;
        activity_before && activity_after) {
        const CpuActivity activity = cpu_activity_between(*activity_before, *activity_after);
        if (activity.cpus > 0) {
            model.environment.steal_share = activity.steal_share();
            model.environment.others_busy_cpus = activity.others_cpus;
        }
        for (auto& w : cpu_activity_warnings(
                 activity, "the run",
                 "each roof is a high quantile of many short bursts, which passes over most disturbed ones, but "
                 "fewer undisturbed bursts were left: roofs lower than another run's may be this; run again when "
                 "the machine is quieter"))
            model.environment.warnings.push_back(std::move(w));
    }
    model.environment.duration_seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    // Each figure is measured at least once whatever the budget: a budget shorter than that is
    // overrun, and saying so is better than a silent 6 s for --time-budget 0.0001.
    if (!model.partial && model.environment.duration_seconds > 1.25 * budget + 0.5)
        model.environment.warnings.push_back(fmt::format(
            "took {:.1f} s, over the time budget of {:g} s: each of the {} figures is measured at least once, and "
            "the clock and cache checks take their time, however small the budget",
            model.environment.duration_seconds, budget, total));
    return model;
}

} // namespace roofline
