#include "bench/numa_bench.hpp"

#include "bench/burst_sampler.hpp"
#include "bench/kernel_check.hpp"
#include "bench/memory_bench.hpp"
#include "bench/thread_buffers.hpp"
#include "bench/thread_team.hpp"
#include "core/byte_sizes.hpp"

#include <fmt/core.h>

#include <stdexcept>

namespace roofline {
namespace {

const char* const kNumaPatterns[] = {"load", "copy"};
constexpr double kNumaScalar = 1.5;

// Memory bound to one node, owned by one thread.
struct NodeBuffer {
    const Topology* topology = nullptr;
    double* data = nullptr;
    std::size_t bytes = 0;
    ~NodeBuffer() {
        if (data) topology->free_on_node(data, bytes);
    }
};

} // namespace

int count_numa_tasks(const Topology& topology, const BenchOptions& options) {
    const auto nodes = static_cast<int>(topology.numa_nodes().size());
    if (!options.memory || nodes < 2 || !options.working_sets.empty()) return 0;
    return nodes * nodes * static_cast<int>(std::size(kNumaPatterns));
}

void run_numa_tasks(const Topology& topology, const BenchOptions& options, std::uint64_t dram_bytes,
                    TaskClock& clock, std::vector<MemoryRoof>& out) {
    if (count_numa_tasks(topology, options) == 0) return;
    for (const auto& cpu_node : topology.numa_nodes()) {
        if (cpu_node.cores.empty() || clock.stopped()) continue;
        ThreadTeam team(topology, cpu_node.cores);
        const int threads = team.size();
        const std::size_t per_thread = dram_bytes / static_cast<std::uint64_t>(threads);
        for (const auto& memory_node : topology.numa_nodes()) {
            std::vector<NodeBuffer> buffers(static_cast<std::size_t>(threads));
            team.run([&](int t) {
                auto& b = buffers[static_cast<std::size_t>(t)];
                b.topology = &topology;
                b.bytes = per_thread;
                b.data = static_cast<double*>(topology.alloc_on_node(per_thread, memory_node.index));
                if (!b.data) throw std::runtime_error(fmt::format("cannot bind {} to NUMA node {}",
                                                                  format_bytes(per_thread), memory_node.index));
                for (std::size_t i = 0; i < per_thread / sizeof(double); ++i) b.data[i] = 1.0;
            });
            // Sampled as the other roofs are (bursts, the same statistic), each
            // kernel self-checked before and its output checked after each burst.
            struct Pattern {
                const MemoryKernel* k;
                std::size_t n;
                std::vector<std::vector<double*>> arrays;
                std::vector<double> sinks;
            };
            std::vector<Pattern> patterns;
            patterns.reserve(std::size(kNumaPatterns));
            std::vector<Figure> figures;
            const auto level = fmt::format("NUMA{}->{}", cpu_node.index, memory_node.index);
            for (const char* pattern : kNumaPatterns) {
                const MemoryKernel* k = memory_kernel_for(pattern, options);
                if (auto problem = check_memory_kernel(*k); !problem.empty())
                    throw std::runtime_error("kernel self-check failed: " + problem);
                std::size_t n = per_thread / sizeof(double) / static_cast<std::size_t>(k->arrays) - kArrayShiftElements;
                n = n / k->block_elements * k->block_elements;
                Pattern& p = patterns.emplace_back(Pattern{k, n, {}, std::vector<double>(static_cast<std::size_t>(threads))});
                for (int t = 0; t < threads; ++t)
                    p.arrays.push_back(carve_arrays(buffers[static_cast<std::size_t>(t)].data, n, k->arrays));
                Figure f;
                f.label = fmt::format("memory {} {}, {} threads", level, pattern, threads);
                f.timed_run = [&team, &p](std::uint64_t reps) {
                    return team.run_timed([&](int t) {
                        const auto i = static_cast<std::size_t>(t);
                        p.sinks[i] = p.k->run(p.arrays[i].data(), p.n, reps, kNumaScalar);
                    });
                };
                f.verify = [&p] {
                    for (std::size_t i = 0; i < p.arrays.size(); ++i)
                        if (auto problem = check_stream_output(*p.k, p.arrays[i].data(), p.n, p.sinks[i], kNumaScalar, 4097);
                            !problem.empty())
                            return problem;
                    return std::string();
                };
                f.work_per_rep = static_cast<double>(n) * k->nominal_bytes_per_element() * threads;
                f.sample_seconds = 0.02;  // whole passes over DRAM-sized buffers
                f.warmup_samples = 0;
                f.threads = threads;
                figures.push_back(std::move(f));
            }
            sample_figures_in_bursts(figures, BurstPolicy{}, {}, clock);
            for (std::size_t i = 0; i < patterns.size(); ++i) {
                if (figures[i].value <= 0) continue;
                const MemoryKernel* k = patterns[i].k;
                MemoryRoof roof;
                roof.level = level;
                roof.pattern = k->pattern;
                roof.isa = isa_name(k->isa);
                roof.threads = threads;
                roof.gbs = figures[i].value;
                roof.gbs_write_allocate = roof.gbs * k->write_allocate_bytes_per_element() / k->nominal_bytes_per_element();
                roof.working_set_bytes = static_cast<std::uint64_t>(patterns[i].n) * sizeof(double) * k->arrays * threads;
                roof.stats = figures[i].stats;
                out.push_back(roof);
            }
            if (clock.stopped()) return;
        }
    }
}

} // namespace roofline
