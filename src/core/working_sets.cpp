#include "core/working_sets.hpp"

#include <fmt/core.h>

#include <algorithm>
#include <cmath>

namespace roofline {

std::uint64_t per_thread_capacity(const CacheLevel& c, int threads) {
    const int sharing = std::max(1, c.shared_by_cores);
    // Threads on the instances this team uses: with t threads on consecutive
    // cores, ceil(t / sharing) instances are in use.
    const int t = std::max(1, threads);
    const int instances_used = std::max(1, std::min(std::max(1, c.instances), (t + sharing - 1) / sharing));
    return c.size_bytes * static_cast<std::uint64_t>(instances_used) / static_cast<std::uint64_t>(t);
}

namespace {

std::vector<std::uint64_t> geometric(double lo, double hi, int points, std::uint64_t align) {
    std::vector<std::uint64_t> out;
    if (hi < lo) hi = lo;
    for (int i = 0; i < points; ++i) {
        const double f = points == 1 ? 1.0 : static_cast<double>(i) / (points - 1);
        double v = lo * std::pow(hi / lo, f);
        auto bytes = static_cast<std::uint64_t>(v) / align * align;
        bytes = std::max(bytes, align);
        if (out.empty() || bytes > out.back()) out.push_back(bytes);
    }
    return out;
}

} // namespace

std::vector<LevelSizes> choose_working_sets(const std::vector<CacheLevel>& caches, int threads, int points,
                                            std::uint64_t dram_total_bytes, double fill,
                                            std::uint64_t align_bytes) {
    std::vector<CacheLevel> sorted = caches;
    std::sort(sorted.begin(), sorted.end(), [](auto& a, auto& b) { return a.level < b.level; });
    std::vector<LevelSizes> out;
    double below = 0;  // per-thread capacity of the level below
    for (const auto& c : sorted) {
        const double cap = static_cast<double>(per_thread_capacity(c, threads));
        const double lo = below > 0 ? 2.0 * below : 0.25 * cap;
        const double hi = fill * cap;
        if (hi < lo) {  // the level is barely larger than the one below: measure near its top
            out.push_back({fmt::format("L{}", c.level), geometric(hi, hi, 1, align_bytes)});
        } else {
            out.push_back({fmt::format("L{}", c.level), geometric(lo, hi, points, align_bytes)});
        }
        below = cap;
    }
    const double t = std::max(1, threads);
    const double dram_hi = static_cast<double>(dram_total_bytes) / t;
    const double dram_lo = std::min(dram_hi, std::max(4.0 * below, dram_hi / 4));
    out.push_back({"DRAM", geometric(dram_lo, dram_hi, points, align_bytes)});
    return out;
}

} // namespace roofline
