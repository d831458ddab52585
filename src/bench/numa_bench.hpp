// The memory-affinity ceiling: with several NUMA nodes, DRAM bandwidth of the
// cores of each node reading memory bound to each node (local vs remote).
// Roofs are reported with level "NUMA<cpu node>-><memory node>", e.g. "NUMA0->1".
#pragma once

#include "bench/bench_plan.hpp"
#include "bench/task_clock.hpp"
#include "core/machine_model.hpp"
#include "topo/topology.hpp"

namespace roofline {

// Figures the NUMA phase takes; 0 on a single-node machine.
int count_numa_tasks(const Topology& topology, const BenchOptions& options);
void run_numa_tasks(const Topology& topology, const BenchOptions& options, std::uint64_t dram_bytes,
                    TaskClock& clock, std::vector<MemoryRoof>& out);

} // namespace roofline
