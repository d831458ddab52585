#include "bench/sampler.hpp"

#include "core/statistics.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>

namespace roofline {

std::uint64_t calibrate_reps(const std::function<double(std::uint64_t)>& timed_run, double sample_seconds,
                             const std::atomic<bool>* stop) {
    auto stopped = [stop] { return stop && stop->load(std::memory_order_relaxed); };
    // Grow reps until a run takes a quarter of the sample time, then scale to the target.
    std::uint64_t reps = 1;
    double seconds = timed_run(reps);
    while (seconds < sample_seconds / 4 && !stopped()) {
        const double grow = seconds > 0 ? std::clamp(sample_seconds / 2 / seconds, 2.0, 64.0) : 64.0;
        reps = static_cast<std::uint64_t>(std::ceil(static_cast<double>(reps) * grow));
        seconds = timed_run(reps);
    }
    return std::max<std::uint64_t>(
        1, static_cast<std::uint64_t>(std::llround(static_cast<double>(reps) * sample_seconds / std::max(seconds, 1e-9))));
}

double quick_trial_rate(const std::function<double(std::uint64_t)>& timed_run, double work_per_rep,
                        double sample_seconds, int samples, const std::atomic<bool>* stop) {
    const std::uint64_t reps = calibrate_reps(timed_run, sample_seconds, stop);
    double best = 0;
    for (int i = 0; i < samples && !(stop && stop->load(std::memory_order_relaxed)); ++i)
        best = std::max(best, rate_g_per_s(work_per_rep, reps, timed_run(reps)));
    return best;
}

std::vector<double> interleaved_best_rates(const std::vector<Rival>& rivals, double sample_seconds, int rounds,
                                           const std::atomic<bool>* stop) {
    auto stopped = [stop] { return stop && stop->load(std::memory_order_relaxed); };
    std::vector<std::uint64_t> reps;
    for (const auto& r : rivals) reps.push_back(stopped() ? 0 : calibrate_reps(r.timed_run, sample_seconds, stop));
    std::vector<double> best(rivals.size(), 0.0);
    for (int round = 0; round < rounds && !stopped(); ++round)
        for (std::size_t i = 0; i < rivals.size() && !stopped(); ++i)
            if (reps[i] > 0)
                best[i] = std::max(best[i], rate_g_per_s(rivals[i].work_per_rep, reps[i], rivals[i].timed_run(reps[i])));
    return best;
}


} // namespace roofline
