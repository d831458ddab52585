// The memory phase: bandwidth of each pattern at several working-set sizes in
// every memory level; each level's figure comes from its best (plateau) size.
#pragma once

#include "bench/bench_plan.hpp"
#include "bench/kernel.hpp"
#include "bench/task_clock.hpp"
#include "bench/thread_team.hpp"
#include "core/machine_model.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace roofline {

struct MemoryTask {
    std::string level;               // "L1" ... "DRAM"
    std::uint64_t per_thread_bytes = 0;
    const MemoryKernel* kernel = nullptr;
};

// The kernel used for a pattern on this CPU (widest supported ISA by default).
const MemoryKernel* memory_kernel_for(const std::string& pattern);
// Patterns measured by a mode, in order.
std::vector<std::string> memory_patterns(const BenchOptions& options);

// Tasks for one thread count.
std::vector<MemoryTask> plan_memory_tasks(const BenchOptions& options, const std::vector<CacheLevel>& caches,
                                          int threads);

// Runs the tasks on `team`, appends curves and per-level roofs.
void run_memory_tasks(ThreadTeam& team, const std::vector<MemoryTask>& tasks, TaskClock& clock,
                      std::vector<MemoryRoof>& roofs, std::vector<BandwidthCurve>& curves);

// Default total DRAM working set: at least 1 GiB and 8x the caches.
std::uint64_t default_dram_bytes(const std::vector<CacheLevel>& caches);

} // namespace roofline
