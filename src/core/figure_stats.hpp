// How a measured figure (a roof, a ceiling) was summarized from its samples:
// shared by the CPU's roofs (core/machine_model.hpp) and the GPU's (core/gpu_model.hpp).
#pragma once

namespace roofline {

// Summary of repeated runs of one figure. Values are in the figure's unit
// (GFLOP/s or GB/s). Roofs are sampled in bursts spread over the run; the roof
// is a high quantile of the bursts' best samples (interference only lowers
// throughput), and median/min/max/CV describe every accepted sample.
struct Stats {
    double median = 0;
    double min = 0;
    double max = 0;
    double cv = 0;      // coefficient of variation, stddev / mean
    int runs = 0;       // accepted samples
    bool stable = true; // false when the spread stayed above the target
    int bursts = 0;             // accepted bursts (0: sampled in one block, figure = median)
    int rejected_bursts = 0;    // bursts dropped because the threads shared a core
    double quantile = 0;        // q of the bursts' best samples the figure is (e.g. 0.9); 0: median
    bool cores_shared = false;  // every burst found the threads sharing cores: not a roof
};

// How far above a roof its own best sample went (the roof is a quantile of its samples): a
// point may land that far above it by chance.
inline double measured_spread(double value, const Stats& stats) {
    return value > 0 && stats.max > value ? stats.max / value - 1 : 0;
}

} // namespace roofline
