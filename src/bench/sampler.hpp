// Timing a figure: the repetition count that makes one sample long enough for
// the clock, the one rate formula, and rivals timed side by side. Figures
// themselves are sampled in bursts (burst_sampler.hpp).
#pragma once

#include "core/machine_model.hpp"

#include <atomic>
#include <cstdint>
#include <functional>
#include <vector>

namespace roofline {

// The one place a rate is derived: `work_per_rep` units (FLOPs, bytes) times
// `reps` in `seconds`, in G units per second (GFLOP/s, GB/s).
inline double rate_g_per_s(double work_per_rep, std::uint64_t reps, double seconds) {
    return work_per_rep * static_cast<double>(reps) / seconds / 1e9;
}

// Repetitions for one sample of about `sample_seconds` (calibration doubles as warm-up).
std::uint64_t calibrate_reps(const std::function<double(std::uint64_t)>& timed_run, double sample_seconds,
                             const std::atomic<bool>* stop = nullptr);

// A quick trial for choosing between kernels: `samples` runs of about
// `sample_seconds` each, the best rate (work units per ns). 0 when stopped.
double quick_trial_rate(const std::function<double(std::uint64_t)>& timed_run, double work_per_rep,
                        double sample_seconds, int samples, const std::atomic<bool>* stop = nullptr);

// Rivals timed side by side: each is calibrated to about `sample_seconds`, then
// `rounds` rounds run every rival once in turn, so a slow moment of the host
// meets them all alike; returns each rival's best rate (G units per second, in
// the order given; 0 for a rival not reached before a stop).
struct Rival {
    std::function<double(std::uint64_t)> timed_run;
    double work_per_rep = 0;
};
std::vector<double> interleaved_best_rates(const std::vector<Rival>& rivals, double sample_seconds, int rounds,
                                           const std::atomic<bool>* stop = nullptr);

} // namespace roofline
