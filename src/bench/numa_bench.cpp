#include "bench/numa_bench.hpp"

#include "bench/memory_bench.hpp"
#include "bench/thread_buffers.hpp"
#include "bench/thread_team.hpp"
#include "core/byte_sizes.hpp"

#include <fmt/core.h>

#include <stdexcept>

namespace roofline {
namespace {

const char* const kNumaPatterns[] = {"load", "copy"};

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
            for (const char* pattern : kNumaPatterns) {
                if (clock.stopped()) return;
                const MemoryKernel* k = memory_kernel_for(pattern);
                std::size_t n = per_thread / sizeof(double) / static_cast<std::size_t>(k->arrays) - kArrayShiftElements;
                n = n / k->block_elements * k->block_elements;
                std::vector<std::vector<double*>> arrays(static_cast<std::size_t>(threads));
                for (int t = 0; t < threads; ++t)
                    arrays[static_cast<std::size_t>(t)] = carve_arrays(buffers[static_cast<std::size_t>(t)].data, n, k->arrays);
                const auto level = fmt::format("NUMA{}->{}", cpu_node.index, memory_node.index);
                const auto policy = clock.begin(fmt::format("memory {} {}, {} threads", level, pattern, threads), 0.02);
                auto timed = [&](std::uint64_t reps) {
                    return team.run_timed([&](int t) { k->run(arrays[static_cast<std::size_t>(t)].data(), n, reps, 1.5); });
                };
                const auto sampled =
                    sample_rate(timed, static_cast<double>(n) * k->nominal_bytes_per_element() * threads, policy,
                                &clock.stop_flag());
                clock.finish_one();
                if (sampled.rates.empty()) return;
                MemoryRoof roof;
                roof.level = level;
                roof.pattern = pattern;
                roof.isa = isa_name(k->isa);
                roof.threads = threads;
                roof.gbs = sampled.stats.median;
                roof.gbs_write_allocate = roof.gbs * k->write_allocate_bytes_per_element() / k->nominal_bytes_per_element();
                roof.working_set_bytes = static_cast<std::uint64_t>(n) * sizeof(double) * k->arrays * threads;
                roof.stats = sampled.stats;
                out.push_back(roof);
            }
        }
    }
}

} // namespace roofline
