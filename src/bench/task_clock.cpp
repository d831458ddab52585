#include "bench/task_clock.hpp"

#include <algorithm>

namespace roofline {

TaskClock::TaskClock(const ProgressSink& progress, const std::atomic<bool>& stop, int total_tasks,
                     double budget_seconds)
    : progress_(progress), stop_(stop), total_(std::max(1, total_tasks)), budget_(budget_seconds),
      start_(std::chrono::steady_clock::now()) {}

double TaskClock::elapsed() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
}

double TaskClock::share_for(int tasks) const {
    const int left = std::max(1, total_ - done_);
    return std::max(0.0, (budget_ - elapsed()) / left * std::min(tasks, left));
}

void TaskClock::announce(const std::string& what, int ahead, double remaining) const {
    const double used = elapsed();
    const int left = std::max(1, total_ - done_);
    if (progress_) {
        ProgressEvent e;
        e.what = what;
        e.done = std::clamp(done_ + ahead, 0, std::max(0, total_ - 1));
        e.total = total_;
        e.elapsed_seconds = used;
        // Figures sampled together finish together, so tasks done say little until
        // the end: the sampler's own estimate first, then the plan's.
        const double planned = expected_ > 0 ? std::min(expected_, budget_) : budget_;
        e.remaining_seconds = remaining >= 0 ? std::min(remaining, std::max(0.0, budget_ - used))
                              : done_ > 0    ? used / done_ * left
                                             : std::max(0.0, planned - used);
        progress_(e);
    }
}

} // namespace roofline
