// The memory phase: bandwidth of each pattern at several working-set sizes in
// every memory level; each level's figure comes from its best (plateau) size.
// The ISA variant of each (level, pattern) is chosen by measurement at the
// first thread count, and every figure is sampled in bursts.
#pragma once

#include "bench/bench_plan.hpp"
#include "bench/burst_sampler.hpp"
#include "bench/kernel.hpp"
#include "bench/task_clock.hpp"
#include "bench/thread_buffers.hpp"
#include "bench/thread_team.hpp"
#include "core/machine_model.hpp"
#include "core/microarch.hpp"

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace roofline {

struct MemoryTask {
    std::string level;               // "L1" ... "DRAM"
    std::uint64_t per_thread_bytes = 0;
    std::string pattern;
    bool per_core = false;           // a cache private to each core: teams scale with their threads
    // A size the user chose (--working-set): named by the level it falls in, measured
    // in whole passes over it (DRAM too), with its own ISA choice.
    bool explicit_size = false;
    std::vector<const MemoryKernel*> variants;  // the ISA variants the run may choose from, widest first
};

// The kernel chosen for one (level, pattern), with every variant's trial rate.
struct MemoryChoice {
    const MemoryKernel* kernel = nullptr;
    std::vector<std::pair<std::string, double>> trials;  // isa name, GB/s
    int threads = 0;  // the team the trials ran on (the choice holds for the run's other teams too)
};
using MemoryChoices = std::map<std::pair<std::string, std::string>, MemoryChoice>;  // (level, pattern)

// Every variant of a pattern this CPU runs and `options` allow (--isa, --kernel), widest first.
std::vector<const MemoryKernel*> memory_kernels_for(const std::string& pattern, const BenchOptions& options);
// The widest of those (for figures not worth a choice, e.g. NUMA).
const MemoryKernel* memory_kernel_for(const std::string& pattern, const BenchOptions& options);
// Patterns measured by a mode, in order.
std::vector<std::string> memory_patterns(const BenchOptions& options);

// Tasks for one thread count.
std::vector<MemoryTask> plan_memory_tasks(const BenchOptions& options, const std::vector<CacheLevel>& caches,
                                          int threads);

// The memory figures of one thread count: per-thread buffers for the largest
// working set, each (level, pattern)'s ISA chosen by measurement unless
// `choices` has it (from the first thread count), one figure per task. After
// sampling, roofs() gives the per-level roofs (each level's best size) and curves.
struct DramRing;  // where a phase's DRAM figures walk (defined in the .cpp)

class MemoryPhase {
public:
    MemoryPhase(ThreadTeam& team, const std::vector<MemoryTask>& tasks, MemoryChoices& choices, TaskClock& clock);
    ~MemoryPhase();
    MemoryPhase(const MemoryPhase&) = delete;
    MemoryPhase& operator=(const MemoryPhase&) = delete;

    std::vector<Figure>& figures() { return figures_; }
    // The figures of one level and pattern (to sample again), emptied of their samples.
    std::vector<Figure*> reset_figures_of(const std::string& level, const std::string& pattern);
    // The figure a roof of roofs() came from (its level and pattern's best size); null: none.
    Figure* figure_of(const MemoryRoof& roof);
    // `microarch` (when the CPU is known) gives the theoretical L1/L2 figures.
    void roofs(const std::optional<Microarch>& microarch, double clock_ghz, std::vector<MemoryRoof>& roofs,
               std::vector<BandwidthCurve>& curves) const;

    struct Stream;  // the timed unit of one figure (defined in the .cpp)

private:
    ThreadTeam& team_;
    const MemoryChoices& choices_;
    std::unique_ptr<DramRing> ring_;
    std::vector<ThreadBuffer> buffers_;
    std::vector<std::unique_ptr<Stream>> streams_;
    std::vector<Figure> figures_;
    std::vector<MemoryTask> task_of_;
};

// Theoretical GB/s (nominal bytes) of a kernel in a level at `threads` cores;
// 0 when unknown (CPU not in the table, or L3/DRAM, or a store pattern in L2).
double memory_theoretical_gbs(const std::optional<Microarch>& microarch, const std::string& level,
                              const MemoryKernel& k, int threads, double clock_ghz);

// Default total DRAM working set: 8x the (checked) caches, at least 256 MiB:
// several times what the caches hold, so a slice of the ring comes from DRAM,
// and not gigabytes more (each page is faulted in before the timing).
std::uint64_t default_dram_bytes(const std::vector<CacheLevel>& caches);

// The level an explicit per-thread working set falls in with `threads` threads:
// the first cache whose per-thread share holds it, else DRAM.
std::string level_of_working_set(const std::vector<CacheLevel>& caches, int threads, std::uint64_t per_thread_bytes);

} // namespace roofline
