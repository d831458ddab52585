#include "measure/rank_rendezvous.hpp"

#include <algorithm>
#include <chrono>
#include <thread>

namespace roofline::measure {

std::vector<int> wait_for_ranks(const std::vector<int>& ranks, double timeout_seconds,
                                const std::function<bool(int rank)>& arrived,
                                const std::function<void(int missing)>& waiting) {
    using Clock = std::chrono::steady_clock;
    const auto start = Clock::now();
    std::vector<int> pending = ranks;
    double pause = 0.05;
    bool told = false;
    for (;;) {
        std::erase_if(pending, [&](int rank) { return arrived(rank); });
        if (pending.empty()) break;
        const double waited = std::chrono::duration<double>(Clock::now() - start).count();
        if (waited >= timeout_seconds) break;
        if (!told && waited > 2 && waiting) {
            waiting(static_cast<int>(pending.size()));
            told = true;
        }
        std::this_thread::sleep_for(std::chrono::duration<double>(std::min(pause, timeout_seconds - waited)));
        pause = std::min(2.0, pause * 1.5);
    }
    return pending;
}

} // namespace roofline::measure
