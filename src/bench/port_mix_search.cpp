#include "bench/port_mix_search.hpp"

#include <algorithm>
#include <cstdlib>
#include <map>

namespace roofline {
namespace {

// The coarsest step s such that the mixes with both counts multiples of s number
// at most `points`.
int coarse_step(const std::vector<ChainMix>& available, int points) {
    int largest = 1;
    for (const auto& m : available) largest = std::max({largest, m.fma, m.add});
    for (int step = 1; step <= largest; ++step) {
        int count = 0;
        for (const auto& m : available) count += m.fma % step == 0 && m.add % step == 0;
        if (count > 0 && count <= points) return step;
    }
    return largest;
}

// For each of the eight directions of the (fma, add) plane (more or fewer of
// either kind, or one traded for the other), the available mix on that ray
// whose distance from `at` (in chains of the kind that moves most) is nearest
// to `step`.
std::vector<ChainMix> neighbours(const std::vector<ChainMix>& available, const ChainMix& at, int step) {
    std::vector<ChainMix> out;
    const int directions[8][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}, {1, -1}, {-1, 1}, {1, 1}, {-1, -1}};
    for (const auto& d : directions) {
        const ChainMix* nearest = nullptr;
        int nearest_gap = 0;
        for (const auto& m : available) {
            const int df = m.fma - at.fma, da = m.add - at.add;
            if (df * d[1] != da * d[0]) continue;                       // not on the ray's line
            if (df * d[0] < 0 || da * d[1] < 0 || (df == 0 && da == 0)) continue;  // behind or at the start
            const int gap = std::abs(std::max(std::abs(df), std::abs(da)) - step);
            if (!nearest || gap < nearest_gap) {
                nearest = &m;
                nearest_gap = gap;
            }
        }
        if (nearest) out.push_back(*nearest);
    }
    return out;
}

} // namespace

MixSearchResult search_port_mix(const std::vector<ChainMix>& available,
                                const std::function<double(const ChainMix&)>& throughput, int coarse_points,
                                int max_evaluations, double min_gain) {
    MixSearchResult result;
    if (available.empty()) return result;
    std::map<std::pair<int, int>, double> seen;
    auto evaluate = [&](const ChainMix& m) -> bool {
        if (seen.count({m.fma, m.add})) return false;
        if (static_cast<int>(result.tried.size()) >= max_evaluations) return false;
        const double v = throughput(m);
        seen[{m.fma, m.add}] = v;
        result.tried.emplace_back(m, v);
        if (result.tried.size() == 1 || v > result.value) {
            result.best = m;
            result.value = v;
        }
        return true;
    };

    const int coarse = coarse_step(available, coarse_points);
    for (const auto& m : available)
        if (m.fma % coarse == 0 && m.add % coarse == 0) evaluate(m);

    // Pattern search: climb to better neighbours at a step, then halve the step.
    for (int step = std::max(1, coarse / 2);; step /= 2) {
        for (;;) {
            const ChainMix from = result.best;
            const double from_value = result.value;
            // Two reaches per direction: a dip one step away (loop alignment,
            // op-cache effects make the landscape bumpy) must not hide a peak at two.
            for (const int reach : {step, 2 * step})
                for (const auto& n : neighbours(available, from, reach)) evaluate(n);
            // Only a clear gain continues the climb, so noise does not wander.
            if (result.best == from || result.value <= from_value * (1 + min_gain)) break;
            if (static_cast<int>(result.tried.size()) >= max_evaluations) break;
        }
        if (step <= 1 || static_cast<int>(result.tried.size()) >= max_evaluations) break;
    }
    return result;
}

std::vector<ChainMix> predicted_best_mixes(const std::vector<ChainMix>& available,
                                           const std::function<double(const ChainMix&)>& predicted, int count,
                                           double within) {
    std::vector<std::pair<ChainMix, double>> scored;
    double best = 0;
    for (const auto& m : available) {
        scored.push_back({m, predicted(m)});
        best = std::max(best, scored.back().second);
    }
    std::vector<ChainMix> near;
    if (!(best > 0)) return near;
    std::stable_sort(scored.begin(), scored.end(), [](const auto& a, const auto& b) {
        return a.first.fma + a.first.add < b.first.fma + b.first.add;
    });
    for (const auto& [m, v] : scored)
        if (v >= (1 - within) * best && static_cast<int>(near.size()) < count) near.push_back(m);
    return near;
}

} // namespace roofline
