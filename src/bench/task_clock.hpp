// Bookkeeping shared by the compute and memory phases of a bench run: how many
// figures are planned, how many are done, the time budget of each, progress
// events, and the stop flag (Ctrl-C).
#pragma once

#include "bench/progress.hpp"

#include <atomic>
#include <chrono>
#include <string>

namespace roofline {

class TaskClock {
public:
    TaskClock(const ProgressSink& progress, const std::atomic<bool>& stop, int total_tasks, double budget_seconds);

    bool stopped() const { return stop_.load(std::memory_order_relaxed); }
    const std::atomic<bool>& stop_flag() const { return stop_; }
    // A progress event: what is being measured now. Figures sampled together in
    // interleaved bursts finish together; `ahead` is this one's place among those
    // not yet finished (0: the first), so the counter follows the one being sampled.
    // `remaining`: the seconds the caller expects the run still takes (the burst
    // sampler knows its bursts' pace); negative: the clock's own guess from the
    // tasks done so far, else from the plan's expected time.
    void announce(const std::string& what, int ahead = 0, double remaining = -1) const;
    // What the run is expected to take in all, from its plan (0: the budget).
    void expect_seconds(double seconds) { expected_ = seconds; }
    // Seconds of the budget left for the next `tasks` figures (their fair share).
    double share_for(int tasks) const;
    void finish_one() { ++done_; }
    double elapsed() const;

private:
    const ProgressSink& progress_;
    const std::atomic<bool>& stop_;
    int total_;
    int done_ = 0;
    double budget_;
    double expected_ = 0;
    std::chrono::steady_clock::time_point start_;
};

} // namespace roofline
