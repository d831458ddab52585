#include "core/thread_imbalance.hpp"

#include "core/roofline.hpp"

#include <fmt/core.h>

#include <algorithm>
#include <cmath>

namespace roofline {

namespace {

double detail(const Point& p, const char* key) {
    const auto it = p.details.find(key);
    return it != p.details.end() && std::isfinite(it->second) && it->second > 0 ? it->second : 0;
}

} // namespace

std::optional<ThreadImbalance> thread_imbalance(const Point& p) {
    const double working = detail(p, kThreadsWorking);
    if (working < 2) return std::nullopt;
    ThreadImbalance t;
    t.threads_working = static_cast<int>(working);
    t.threads = std::max(1, p.threads);
    if (p.work_counted && p.work_unit == "FLOP" && p.work > 0) {
        t.busiest = detail(p, kBusiestThreadFlops);
        t.total = p.work;
    } else {
        t.busiest = detail(p, kBusiestThreadBytes);
        t.total = detail(p, "bytes_loaded") + detail(p, "bytes_stored");
        t.bytes = true;
    }
    if (!(t.busiest > 0) || !(t.total > 0)) return std::nullopt;
    // The marker calls' own counts come off a region's total, not its busiest thread's: never above 1.
    t.ratio = std::min(1.0, t.busiest / t.total) * working;
    if (!(t.ratio > kThreadImbalanceRatio)) return std::nullopt;
    return t;
}

std::string thread_imbalance_text(const ThreadImbalance& t) {
    const char* what = t.bytes ? "bytes" : "FLOPs";
    // All of them at once: the busiest sets the time of all the work, so with every thread at its
    // share of the roof the point sits that ratio below it. Fewer at once (a serial part on one
    // of them, then workers): the factor is not that ratio, only the direction is said.
    const std::string cost =
        t.threads >= t.threads_working
            ? fmt::format("so even with every thread at its share of the roof the point sits about {:.2f}x below it",
                          t.ratio)
            : std::string("so the point sits below that roof by more than its code's speed explains");
    const std::string at_once =
        t.threads < t.threads_working ? fmt::format(", at most {} at once", t.threads) : std::string{};
    return fmt::format("its busiest thread did {:.2f}x an equal share of its {} ({:.3g} of {:.3g}, over the {} threads "
                       "that did them{}): the roofs of {} thread{} assume each does an equal share, but its time is "
                       "set by the busiest thread, {}; spread the work evenly (a dynamic schedule, smaller chunks) "
                       "before tuning the code itself",
                       t.ratio, what, t.busiest, t.total, t.threads_working, at_once, t.threads,
                       t.threads == 1 ? "" : "s", cost);
}

} // namespace roofline
