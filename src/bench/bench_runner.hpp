// Runs the microbenchmarks a BenchOptions asks for and returns the measured
// machine model. Measurement only: no files, no printing (progress goes to the sink).
#pragma once

#include "bench/bench_plan.hpp"
#include "bench/progress.hpp"
#include "core/machine_model.hpp"
#include "topo/topology.hpp"

#include <atomic>
#include <functional>
#include <string>
#include <vector>

namespace roofline {

// Throws std::invalid_argument for options this machine cannot run (more
// threads than cores, an unknown precision...). When `stop` becomes true the
// run ends after the current sample and returns what it has, marked partial.
MachineModel run_bench(const Topology& topology, const BenchOptions& options, const ProgressSink& progress,
                       const std::atomic<bool>& stop);

// Checks options against the machine without measuring; throws std::invalid_argument.
void validate_bench_options(const Topology& topology, const BenchOptions& options);

// Warnings for figures of per-core resources (private caches, the peaks) that
// a team reached below (1 - shortfall) x threads x the 1-thread figure: the
// cores were seldom quiet together, the figure is likely low. Pure.
std::vector<std::string> per_core_scaling_warnings(const MachineModel& model, double shortfall);

// The figures those warnings call likely low marked not stable (Stats::stable false), so a
// model says so itself: bench records it, and compare and history apply it to models written
// before it did (a 1-thread L2 copy roof at 0.78x its share of the team's, stable in the JSON,
// read 'SLOWER (-23%)'). Returns how many it newly marked.
int mark_per_core_shortfalls_unstable(MachineModel& model, double shortfall);

// Warnings for figures above their theoretical value (more than a 2% margin for
// clock measurement): a roof cannot beat the hardware, so the table or the
// clock is wrong. Pure.
std::vector<std::string> roof_sanity_warnings(const MachineModel& model);

} // namespace roofline
