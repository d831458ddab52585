#include "bench/memory_bench.hpp"

#include "bench/isa_support.hpp"
#include "bench/kernel_check.hpp"
#include "bench/kernel_selection.hpp"
#include "bench/sampler.hpp"
#include "core/byte_sizes.hpp"
#include "core/peak.hpp"
#include "core/working_sets.hpp"

#include <fmt/core.h>
#include <fmt/format.h>

#include <algorithm>
#include <memory>
#include <set>
#include <stdexcept>

namespace roofline {
namespace {

// A trial while choosing the ISA: the best of 6 runs of about 4 ms (at least one
// pass, or one slice of a DRAM working set), interleaved with the other variants.
constexpr double kTrialSeconds = 0.004;
constexpr int kTrialRounds = 6;
constexpr int kSharedLevelWarmupSamples = 4;
constexpr double kStreamScalar = 1.5;  // exact in binary: checked results stay exact
// A DRAM figure's rep: 16 MiB per thread over the kernel's arrays, about a
// millisecond at one core's DRAM bandwidth, far longer than the prefetchers'
// ramp at the start of each slice.
constexpr std::uint64_t kDramSliceBytes = 16ull << 20;
// DRAM figures take at least 8 bursts (about 15 ms each) spread over the run: on a shared
// host the memory bandwidth two threads get swings by 1.7x for seconds at a time, and a roof
// is what the good spells give (a truth check failed at 0.80 of a probe run moments later).
constexpr int kDramMinBursts = 8;

int isa_rank(Isa isa) { return isa == Isa::avx512 ? 2 : isa == Isa::avx2 ? 1 : 0; }

} // namespace

// Where a phase's DRAM streams walk: per thread, the part of its buffer past
// what the cache-level figures use, and one cursor that every DRAM stream of the
// phase (each ISA trial and pattern alike) moves on. A slice is then never data
// another DRAM figure just read: it was last touched a whole ring ago, several
// times the caches, so it comes from DRAM as a whole pass would.
struct DramRing {
    std::size_t start = 0;     // elements into each thread's buffer
    std::size_t elements = 0;  // per thread
    std::vector<std::size_t> next;  // per thread: where the next slice starts, from `start`
};

// One kernel over per-thread arrays carved from the team's buffers: the timed
// unit of every memory figure and trial. A cache-level figure runs whole passes
// over its working set; a DRAM figure runs a slice of its ring per rep, so a
// sample lasts milliseconds, not a pass of gigabytes, and the figure gets its
// bursts spread over the run like every other figure.
struct MemoryPhase::Stream {
    ThreadTeam& team;
    const MemoryKernel& k;
    std::size_t n = 0;         // elements per array (a slice's, on a ring)
    DramRing* ring = nullptr;  // null: whole passes over fixed arrays
    std::vector<const ThreadBuffer*> buffers;
    std::vector<std::vector<double*>> arrays;  // per thread: the arrays of its last run
    std::vector<double> sinks;                 // per thread: the last kernel call's result

    // Whole passes over a working set of `per_thread_bytes`.
    Stream(ThreadTeam& t, const MemoryKernel& kernel, std::uint64_t per_thread_bytes,
           const std::vector<ThreadBuffer>& thread_buffers)
        : Stream(t, kernel, thread_buffers) {
        n = elements_per_array(per_thread_bytes);
        for (std::size_t i = 0; i < buffers.size(); ++i) arrays.push_back(carve_arrays(buffers[i]->data, n, k.arrays));
    }
    // Slices of `slice_bytes` per thread, walking `dram_ring`.
    Stream(ThreadTeam& t, const MemoryKernel& kernel, DramRing& dram_ring, std::uint64_t slice_bytes,
           const std::vector<ThreadBuffer>& thread_buffers)
        : Stream(t, kernel, thread_buffers) {
        ring = &dram_ring;
        n = elements_per_array(slice_bytes);
        if (span() > ring->elements) throw std::logic_error("DRAM ring smaller than one slice");
        for (std::size_t i = 0; i < buffers.size(); ++i)
            arrays.push_back(carve_arrays(buffers[i]->data + ring->start, n, k.arrays));
    }
    std::size_t elements_per_array(std::uint64_t bytes) const {
        const std::size_t e = bytes / sizeof(double) / static_cast<std::size_t>(k.arrays);
        return std::max(k.block_elements, e / k.block_elements * k.block_elements);
    }
    std::size_t span() const { return static_cast<std::size_t>(k.arrays) * (n + kArrayShiftElements); }
    // The bytes a figure's reps cycle through per thread: its arrays, or its ring.
    std::uint64_t working_set_bytes() const {
        return ring ? static_cast<std::uint64_t>(ring->elements) * sizeof(double)
                    : static_cast<std::uint64_t>(n) * sizeof(double) * k.arrays;
    }
    double bytes_per_rep() const { return static_cast<double>(n) * k.nominal_bytes_per_element() * team.size(); }
    double operator()(std::uint64_t reps) {
        return team.run_timed([&](int t) {
            const auto i = static_cast<std::size_t>(t);
            if (!ring) {
                sinks[i] = k.run(arrays[i].data(), n, reps, kStreamScalar);
                return;
            }
            std::size_t& next = ring->next[i];
            double* const base = buffers[i]->data + ring->start;
            for (std::uint64_t r = 0; r < reps; ++r) {
                if (next + span() > ring->elements) next = 0;
                for (int a = 0; a < k.arrays; ++a)
                    arrays[i][static_cast<std::size_t>(a)] = base + next + static_cast<std::size_t>(a) * (n + kArrayShiftElements);
                sinks[i] = k.run(arrays[i].data(), n, 1, kStreamScalar);
                next += span();
            }
        });
    }
    // The last run's output on every thread (every 4097th element: cheap at any size).
    std::string verify() const {
        for (std::size_t i = 0; i < arrays.size(); ++i)
            if (auto problem = check_stream_output(k, arrays[i].data(), n, sinks[i], kStreamScalar, 4097); !problem.empty())
                return fmt::format("thread {}: {}", i, problem);
        return {};
    }

private:
    Stream(ThreadTeam& t, const MemoryKernel& kernel, const std::vector<ThreadBuffer>& thread_buffers)
        : team(t), k(kernel), sinks(thread_buffers.size()) {
        for (const auto& b : thread_buffers) buffers.push_back(&b);
    }
};
using TimedStream = MemoryPhase::Stream;

namespace {

// Sizes of a cache level share one ISA choice; explicit sizes (--working-set)
// may span levels, so each gets its own.
std::pair<std::string, std::string> choice_key(const MemoryTask& task) {
    if (task.explicit_size) return {fmt::format("{} {}", task.level, task.per_thread_bytes), task.pattern};
    return {task.level, task.pattern};
}

void check_kernel(const MemoryKernel& k) {
    if (auto problem = check_memory_kernel(k); !problem.empty())
        throw std::runtime_error("kernel self-check failed: " + problem);
}

// Tries every ISA variant of `pattern` at `bytes` per thread; the fastest wins.
// `ring`: the DRAM ring the trials walk (null: whole passes over `bytes`).
MemoryChoice choose_kernel(ThreadTeam& team, const std::string& level, const std::string& pattern,
                           const std::vector<const MemoryKernel*>& variants, std::uint64_t bytes,
                           const std::vector<ThreadBuffer>& buffers, DramRing* ring, TaskClock& clock) {
    MemoryChoice choice;
    choice.threads = team.size();
    if (variants.size() > 1)
        clock.announce(fmt::format("choosing the ISA for {} {} ({} variants)", level, pattern, variants.size()));
    if (variants.size() == 1) {
        check_kernel(*variants.front());
        return {variants.front(), {}, team.size()};
    }
    // Timed side by side in rounds, so a slow spell of the host (which can last
    // longer than one variant's trial) meets every variant alike.
    std::vector<std::unique_ptr<TimedStream>> timed;
    std::vector<Rival> rivals;
    for (const MemoryKernel* k : variants) {
        check_kernel(*k);
        timed.push_back(ring ? std::make_unique<TimedStream>(team, *k, *ring, kDramSliceBytes, buffers)
                             : std::make_unique<TimedStream>(team, *k, bytes, buffers));
        rivals.push_back({std::ref(*timed.back()), timed.back()->bytes_per_rep()});
    }
    const auto rates = interleaved_best_rates(rivals, kTrialSeconds, kTrialRounds, &clock.stop_flag());
    if (clock.stopped()) return choice;
    double best = -1;
    for (std::size_t i = 0; i < variants.size(); ++i) {
        choice.trials.emplace_back(isa_name(variants[i]->isa), rates[i]);
        if (rates[i] > best) best = rates[i], choice.kernel = variants[i];
    }
    return choice;
}

} // namespace

std::uint64_t default_dram_bytes(const std::vector<CacheLevel>& caches) {
    std::uint64_t total_cache = 0;
    for (const auto& c : caches) total_cache += c.size_bytes * static_cast<std::uint64_t>(std::max(1, c.instances));
    return std::max<std::uint64_t>(256ull << 20, 8 * total_cache);
}

std::string level_of_working_set(const std::vector<CacheLevel>& caches, int threads, std::uint64_t per_thread_bytes) {
    std::vector<CacheLevel> sorted = caches;
    std::sort(sorted.begin(), sorted.end(), [](auto& a, auto& b) { return a.level < b.level; });
    for (const auto& c : sorted)
        if (per_thread_bytes <= per_thread_capacity(c, threads)) return fmt::format("L{}", c.level);
    return "DRAM";
}

std::vector<const MemoryKernel*> memory_kernels_for(const std::string& pattern, const BenchOptions& options) {
    std::vector<const MemoryKernel*> out;
    for (const auto& k : all_memory_kernels())
        if (k.pattern == pattern && isa_supported(k.isa) && kernel_allowed(options, k.name, k.isa)) out.push_back(&k);
    std::sort(out.begin(), out.end(), [](auto* a, auto* b) { return isa_rank(a->isa) > isa_rank(b->isa); });
    return out;
}

const MemoryKernel* memory_kernel_for(const std::string& pattern, const BenchOptions& options) {
    const auto all = memory_kernels_for(pattern, options);
    return all.empty() ? nullptr : all.front();
}

std::vector<std::string> memory_patterns(const BenchOptions& options) {
    if (!options.patterns.empty()) return options.patterns;
    // quick: triad too, since one core's DRAM bandwidth grows with the streams it keeps in flight (more
    // misses outstanding): STREAM-type kernels of three streams beat a two-stream copy, and a roof
    // measured without them would sit below the kernels it judges.
    if (options.mode == BenchMode::quick) return {"load", "copy", "triad"};
    return {"load", "store", "copy", "triad", "2ld1st", "store_nt", "copy_nt", "triad_nt"};
}

std::vector<MemoryTask> plan_memory_tasks(const BenchOptions& options, const std::vector<CacheLevel>& caches,
                                          int threads) {
    std::vector<MemoryTask> tasks;
    const auto patterns = memory_patterns(options);
    std::vector<LevelSizes> levels;
    const bool explicit_sizes = !options.working_sets.empty();
    if (explicit_sizes) {
        for (const std::uint64_t bytes : options.working_sets) {
            const std::string level = level_of_working_set(caches, threads, bytes);
            auto same = std::find_if(levels.begin(), levels.end(), [&](const LevelSizes& l) { return l.level == level; });
            if (same == levels.end()) levels.push_back({level, {bytes}});
            else same->per_thread_bytes.push_back(bytes);
        }
    } else {
        const std::uint64_t dram = options.dram_bytes ? options.dram_bytes : default_dram_bytes(caches);
        levels = choose_working_sets(caches, threads, options.mode == BenchMode::quick ? 3 : 4, dram);
    }
    const auto private_to_each_core = [&](const std::string& level) {
        for (const auto& c : caches)
            if (level == fmt::format("L{}", c.level)) return c.shared_by_cores == 1;
        return false;
    };
    for (const auto& level : levels) {
        const bool per_core = private_to_each_core(level.level);
        for (const auto& pattern : patterns) {
            // Non-temporal stores bypass the caches: only meaningful for DRAM.
            if (pattern.ends_with("_nt") && level.level != "DRAM" && !explicit_sizes) continue;
            const auto variants = memory_kernels_for(pattern, options);
            if (variants.empty())
                throw std::invalid_argument("no kernel for memory pattern '" + pattern + "' on this CPU" +
                                            (options.isa.empty() && options.kernels.empty() ? "" : " among those selected"));
            // DRAM figures walk one ring in slices (MemoryPhase): the largest size
            // is the ring, and smaller ones would measure the same thing again.
            if (level.level == "DRAM" && !level.per_thread_bytes.empty() && !explicit_sizes) {
                tasks.push_back({level.level, level.per_thread_bytes.back(), pattern, per_core, false, variants});
                continue;
            }
            for (auto bytes : level.per_thread_bytes)
                tasks.push_back({level.level, bytes, pattern, per_core, explicit_sizes, variants});
        }
    }
    return tasks;
}

double memory_theoretical_gbs(const std::optional<Microarch>& microarch, const std::string& level,
                              const MemoryKernel& k, int threads, double clock_ghz) {
    if (!microarch) return 0;
    double per_cycle = 0;
    if (level == "L1") per_cycle = l1_bytes_per_cycle(microarch->ports, k.reads_per_element, k.writes_per_element);
    else if (level == "L2") per_cycle = l2_bytes_per_cycle(microarch->ports, k.reads_per_element, k.writes_per_element);
    return per_cycle * threads * clock_ghz;
}

MemoryPhase::MemoryPhase(ThreadTeam& team, const std::vector<MemoryTask>& tasks, MemoryChoices& choices,
                         TaskClock& clock)
    : team_(team), choices_(choices) {
    if (tasks.empty()) return;
    const int threads = team.size();
    // Cache-level figures use the start of each thread's buffer; the DRAM ring
    // follows it, so a DRAM slice never meets lines a cache figure just touched.
    std::uint64_t cache_bytes = 0, dram_bytes = 0;
    for (const auto& t : tasks) {
        std::uint64_t& largest = t.level == "DRAM" && !t.explicit_size ? dram_bytes : cache_bytes;
        largest = std::max(largest, t.per_thread_bytes);
    }
    constexpr std::size_t kPage = 4096 / sizeof(double);
    const std::size_t cache_elements =
        cache_bytes == 0 ? 0 : (cache_bytes / sizeof(double) + 4 * kArrayShiftElements + kPage) / kPage * kPage;
    ring_ = std::make_unique<DramRing>();
    ring_->start = cache_elements;
    ring_->elements = dram_bytes / sizeof(double);
    ring_->next.assign(static_cast<std::size_t>(threads), 0);
    buffers_ = allocate_thread_buffers(team, cache_elements + ring_->elements + 4 * kArrayShiftElements + 64);

    // Choose each (level, pattern)'s ISA at its middle size, once per run.
    std::map<std::pair<std::string, std::string>, std::vector<std::uint64_t>> sizes;
    std::map<std::pair<std::string, std::string>, const std::vector<const MemoryKernel*>*> variants;
    for (const auto& t : tasks) {
        sizes[choice_key(t)].push_back(t.per_thread_bytes);
        variants[choice_key(t)] = &t.variants;
    }
    for (const auto& [key, list] : sizes) {
        if (clock.stopped()) return;
        if (!choices.count(key))
            choices[key] =
                choose_kernel(team, key.first, key.second, *variants[key], list[list.size() / 2], buffers_,
                              key.first == "DRAM" ? ring_.get() : nullptr, clock);  // explicit sizes' keys carry their size
    }
    for (const auto& task : tasks) {
        const auto choice = choices.find(choice_key(task));
        if (choice == choices.end() || !choice->second.kernel) continue;
        const MemoryKernel& k = *choice->second.kernel;
        const bool on_ring = task.level == "DRAM" && !task.explicit_size;
        streams_.push_back(on_ring
                               ? std::make_unique<Stream>(team, k, *ring_, kDramSliceBytes, buffers_)
                               : std::make_unique<Stream>(team, k, task.per_thread_bytes, buffers_));
        Figure f;
        f.label = fmt::format("memory {} {} {} ({}), {} thread{}", task.level, k.pattern,
                              format_bytes(streams_.back()->working_set_bytes() * threads), isa_name(k.isa), threads,
                              threads > 1 ? "s" : "");
        f.timed_run = std::ref(*streams_.back());
        f.verify = [stream = streams_.back().get()] { return stream->verify(); };
        f.work_per_rep = streams_.back()->bytes_per_rep();
        // A shared level needs a longer warm-up than one pass: an 8 MB/thread L3
        // figure (2 threads, Zen 3) sampled between DRAM bursts measured 59-70
        // GB/s after one warm-up pass, 68-97 after one warm-up sample, 109-118
        // after four; 110-126 alone.
        f.warmup_samples = on_ring ? 0 : task.per_core ? 1 : kSharedLevelWarmupSamples;
        if (task.level == "DRAM") f.min_bursts = kDramMinBursts;
        f.threads = threads;
        if (task.per_core) {
            f.scaling_key = fmt::format("memory {} {} {} {}", task.level, k.pattern, isa_name(k.isa), task.per_thread_bytes);
            // Short samples catch the quiet windows a busy SMT sibling leaves;
            // a private cache's threads need no overlap with each other.
            f.sample_seconds = 0.0005;
        }
        figures_.push_back(std::move(f));
        task_of_.push_back(task);
    }
}

MemoryPhase::~MemoryPhase() = default;

std::vector<Figure*> MemoryPhase::reset_figures_of(const std::string& level, const std::string& pattern) {
    std::vector<Figure*> out;
    for (std::size_t i = 0; i < figures_.size(); ++i) {
        if (task_of_[i].level != level || streams_[i]->k.pattern != pattern) continue;
        Figure& f = figures_[i];
        f.reps = 0;
        f.bursts.clear();
        f.rejected.clear();
        f.value = 0;
        f.stats = {};
        out.push_back(&f);
    }
    return out;
}

Figure* MemoryPhase::figure_of(const MemoryRoof& roof) {
    Figure* best = nullptr;
    for (std::size_t i = 0; i < figures_.size(); ++i)
        if (task_of_[i].level == roof.level && streams_[i]->k.pattern == roof.pattern && figures_[i].value > 0 &&
            (!best || figures_[i].value > best->value))
            best = &figures_[i];
    return best;
}

void MemoryPhase::roofs(const std::optional<Microarch>& microarch, double clock_ghz, std::vector<MemoryRoof>& roofs,
                        std::vector<BandwidthCurve>& curves) const {
    const int threads = team_.size();
    std::map<std::pair<std::string, std::string>, MemoryRoof> best;  // (level, pattern)
    std::map<std::string, BandwidthCurve> curve_of;                   // pattern
    std::map<std::string, std::set<std::string>> curve_isas;          // pattern: the ISAs its points ran
    std::vector<std::string> level_order;
    for (std::size_t i = 0; i < figures_.size(); ++i) {
        const Figure& f = figures_[i];
        if (f.value <= 0) continue;
        const MemoryTask& task = task_of_[i];
        const MemoryKernel& k = streams_[i]->k;
        const std::uint64_t ws_bytes = streams_[i]->working_set_bytes() * threads;
        auto& curve = curve_of[k.pattern];
        curve.pattern = k.pattern;
        curve_isas[k.pattern].insert(isa_name(k.isa));
        curve.threads = threads;
        curve.points.emplace_back(ws_bytes, f.value);

        if (std::find(level_order.begin(), level_order.end(), task.level) == level_order.end())
            level_order.push_back(task.level);
        auto& roof = best[{task.level, k.pattern}];
        if (f.value > roof.gbs) {
            roof.level = task.level;
            roof.pattern = k.pattern;
            roof.isa = isa_name(k.isa);
            roof.threads = threads;
            roof.gbs = f.value;
            roof.gbs_write_allocate = f.value * k.write_allocate_bytes_per_element() / k.nominal_bytes_per_element();
            roof.theoretical_gbs = memory_theoretical_gbs(microarch, task.level, k, threads, clock_ghz);
            roof.working_set_bytes = ws_bytes;
            // The trials' rates are of the team that chose: shown only beside that team's roof.
            const MemoryChoice& choice = choices_.at(choice_key(task));
            roof.isa_trials = choice.threads == threads ? choice.trials : decltype(choice.trials){};
            roof.stats = f.stats;
        }
    }
    for (const auto& level : level_order)
        for (const auto& [key, roof] : best)
            if (key.first == level) roofs.push_back(roof);
    for (auto& [pattern, curve] : curve_of) {
        // Each level's sizes run the ISA chosen for that level: one name only when they all ran it.
        const auto& isas = curve_isas[pattern];
        curve.isa = isas.size() == 1 ? *isas.begin() : fmt::format("each level's fastest ({})", fmt::join(isas, ", "));
        std::sort(curve.points.begin(), curve.points.end());
        curves.push_back(curve);
    }
}

} // namespace roofline
