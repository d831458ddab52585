#include "bench/memory_bench.hpp"

#include "bench/isa_support.hpp"
#include "bench/kernel_check.hpp"
#include "bench/thread_buffers.hpp"
#include "core/byte_sizes.hpp"
#include "core/working_sets.hpp"

#include <fmt/core.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <stdexcept>

namespace roofline {
namespace {



} // namespace

std::uint64_t default_dram_bytes(const std::vector<CacheLevel>& caches) {
    std::uint64_t total_cache = 0;
    for (const auto& c : caches) total_cache += c.size_bytes * static_cast<std::uint64_t>(std::max(1, c.instances));
    return std::max<std::uint64_t>(1ull << 30, 8 * total_cache);
}

const MemoryKernel* memory_kernel_for(const std::string& pattern) {
    // Widest ISA this CPU runs; measured on Zen 4 to be as fast as AVX-512 in every level.
    const Isa order[] = {Isa::avx2, Isa::avx512, Isa::sse2};
    for (Isa isa : order) {
        if (!isa_supported(isa)) continue;
        for (const auto& k : all_memory_kernels())
            if (k.pattern == pattern && k.isa == isa) return &k;
    }
    return nullptr;
}

std::vector<std::string> memory_patterns(const BenchOptions& options) {
    if (!options.patterns.empty()) return options.patterns;
    if (options.mode == "quick") return {"load", "copy"};
    return {"load", "store", "copy", "triad", "2ld1st", "store_nt", "copy_nt", "triad_nt"};
}

std::vector<MemoryTask> plan_memory_tasks(const BenchOptions& options, const std::vector<CacheLevel>& caches,
                                          int threads) {
    std::vector<MemoryTask> tasks;
    const auto patterns = memory_patterns(options);
    std::vector<LevelSizes> levels;
    if (!options.working_sets.empty()) {
        levels.push_back({"custom", options.working_sets});
    } else {
        const std::uint64_t dram = options.dram_bytes ? options.dram_bytes : default_dram_bytes(caches);
        levels = choose_working_sets(caches, threads, options.mode == "quick" ? 3 : 4, dram);
    }
    for (const auto& level : levels) {
        for (const auto& pattern : patterns) {
            // Non-temporal stores bypass the caches: only meaningful for DRAM.
            if (pattern.ends_with("_nt") && level.level != "DRAM" && level.level != "custom") continue;
            const MemoryKernel* k = memory_kernel_for(pattern);
            if (!k) throw std::invalid_argument("no kernel for memory pattern '" + pattern + "' on this CPU");
            for (auto bytes : level.per_thread_bytes) tasks.push_back({level.level, bytes, k});
        }
    }
    return tasks;
}

void run_memory_tasks(ThreadTeam& team, const std::vector<MemoryTask>& tasks, TaskClock& clock,
                      std::vector<MemoryRoof>& roofs, std::vector<BandwidthCurve>& curves) {
    if (tasks.empty()) return;
    const int threads = team.size();
    std::uint64_t max_bytes = 0;
    for (const auto& t : tasks) max_bytes = std::max(max_bytes, t.per_thread_bytes);
    const std::size_t buffer_elements = max_bytes / sizeof(double) + 4 * kArrayShiftElements + 64;

    auto buffers = allocate_thread_buffers(team, buffer_elements);

    std::map<std::pair<std::string, std::string>, MemoryRoof> best;  // (level, pattern)
    std::map<std::string, BandwidthCurve> curve_of;                   // pattern
    std::vector<std::string> level_order;
    std::vector<std::string> checked;
    for (const auto& task : tasks) {
        if (clock.stopped()) break;
        const MemoryKernel& k = *task.kernel;
        if (std::find(checked.begin(), checked.end(), k.name) == checked.end()) {
            if (auto problem = check_memory_kernel(k); !problem.empty())
                throw std::runtime_error("kernel self-check failed: " + problem);
            checked.push_back(k.name);
        }
        // Elements per array: the working set is shared by the kernel's arrays.
        std::size_t n = task.per_thread_bytes / sizeof(double) / static_cast<std::size_t>(k.arrays);
        n = std::max(k.block_elements, n / k.block_elements * k.block_elements);
        const std::uint64_t ws_bytes = static_cast<std::uint64_t>(n) * sizeof(double) * k.arrays;
        std::vector<std::vector<double*>> arrays(static_cast<std::size_t>(threads));
        for (int t = 0; t < threads; ++t)
            arrays[static_cast<std::size_t>(t)] = carve_arrays(buffers[static_cast<std::size_t>(t)].data, n, k.arrays);

        const auto policy = clock.begin(fmt::format("memory {} {} {}, {} thread{}", task.level, k.pattern,
                                                    format_bytes(ws_bytes * threads), threads, threads > 1 ? "s" : ""),
                                        0.01);
        std::vector<double> sinks(static_cast<std::size_t>(threads));
        auto timed = [&](std::uint64_t reps) {
            return team.run_timed([&](int t) {
                sinks[static_cast<std::size_t>(t)] = k.run(arrays[static_cast<std::size_t>(t)].data(), n, reps, 1.5);
            });
        };
        const double bytes_per_rep = static_cast<double>(n) * k.nominal_bytes_per_element() * threads;
        const auto sampled = sample_rate(timed, bytes_per_rep, policy, &clock.stop_flag());
        clock.finish_one();
        if (sampled.rates.empty()) break;

        const double gbs = sampled.stats.median;
        auto& curve = curve_of[k.pattern];
        curve.pattern = k.pattern;
        curve.isa = isa_name(k.isa);
        curve.threads = threads;
        curve.points.emplace_back(ws_bytes * threads, gbs);

        auto key = std::make_pair(task.level, k.pattern);
        if (std::find(level_order.begin(), level_order.end(), task.level) == level_order.end())
            level_order.push_back(task.level);
        auto& roof = best[key];
        if (gbs > roof.gbs) {
            roof.level = task.level;
            roof.pattern = k.pattern;
            roof.isa = isa_name(k.isa);
            roof.threads = threads;
            roof.gbs = gbs;
            roof.gbs_write_allocate = gbs * k.write_allocate_bytes_per_element() / k.nominal_bytes_per_element();
            roof.working_set_bytes = ws_bytes * threads;
            roof.stats = sampled.stats;
        }
    }
    for (const auto& level : level_order)
        for (const auto& [key, roof] : best)
            if (key.first == level) roofs.push_back(roof);
    for (auto& [pattern, curve] : curve_of) {
        std::sort(curve.points.begin(), curve.points.end());
        curves.push_back(curve);
    }
}

} // namespace roofline
