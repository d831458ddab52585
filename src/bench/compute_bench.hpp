// The compute phase: every (precision, width, mix) family of compute kernels,
// searched at the first thread count, its winner confirmed at the others.
#pragma once

#include "bench/bench_plan.hpp"
#include "bench/kernel.hpp"
#include "bench/task_clock.hpp"
#include "bench/thread_team.hpp"
#include "core/machine_model.hpp"
#include "core/peak.hpp"

#include <vector>

namespace roofline {

struct ComputeFamily {
    std::string precision;
    int vector_bits = 0;
    std::string mix;
    std::vector<const ComputeKernel*> variants;  // e.g. fma8 and fma12; fastest wins
};

// The families this run measures (supported ISAs only).
std::vector<ComputeFamily> plan_compute_families(const BenchOptions& options);
// Figures the compute phase will take: all variants at the first thread count,
// one per family at each further count.
int count_compute_tasks(const std::vector<ComputeFamily>& families, int thread_counts);

// Measures the families on `team` (its size is the thread count). `winners`
// carries the variant chosen at the first thread count to the later ones.
void run_compute_families(ThreadTeam& team, const std::vector<ComputeFamily>& families, const FpPipes& pipes,
                          double clock_ghz, TaskClock& clock, std::vector<const ComputeKernel*>& winners,
                          std::vector<ComputeRoof>& out);

// Adds one "best" roof per (precision, threads): the fastest of everything measured.
void add_best_compute_roofs(std::vector<ComputeRoof>& roofs);

} // namespace roofline
