#include "core/statistics.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace roofline {

double median(std::vector<double> values) {
    if (values.empty()) return 0;
    const auto n = values.size();
    std::nth_element(values.begin(), values.begin() + n / 2, values.end());
    double upper = values[n / 2];
    if (n % 2 == 1) return upper;
    double lower = *std::max_element(values.begin(), values.begin() + n / 2);
    return (lower + upper) / 2;
}

double mean(const std::vector<double>& values) {
    if (values.empty()) return 0;
    return std::accumulate(values.begin(), values.end(), 0.0) / static_cast<double>(values.size());
}

double coefficient_of_variation(const std::vector<double>& values) {
    if (values.size() < 2) return 0;
    const double m = mean(values);
    if (m == 0) return 0;
    double sum_sq = 0;
    for (double v : values) sum_sq += (v - m) * (v - m);
    return std::sqrt(sum_sq / static_cast<double>(values.size() - 1)) / std::fabs(m);
}

Stats summarize(const std::vector<double>& values, double cv_target) {
    Stats s;
    if (values.empty()) return s;
    s.median = median(values);
    auto [lo, hi] = std::minmax_element(values.begin(), values.end());
    s.min = *lo;
    s.max = *hi;
    s.cv = coefficient_of_variation(values);
    s.runs = static_cast<int>(values.size());
    s.stable = s.cv <= cv_target;
    return s;
}

double quantile(std::vector<double> values, double q) {
    if (values.empty()) return 0;
    std::sort(values.begin(), values.end());
    const double position = std::clamp(q, 0.0, 1.0) * static_cast<double>(values.size() - 1);
    const auto below = static_cast<std::size_t>(std::floor(position));
    const auto above = std::min(values.size() - 1, below + 1);
    const double fraction = position - static_cast<double>(below);
    return values[below] + fraction * (values[above] - values[below]);
}

double summarize_bursts(const std::vector<std::vector<double>>& bursts, double q, double agreement, Stats& stats) {
    std::vector<double> all, burst_bests;
    for (const auto& b : bursts) {
        if (b.empty()) continue;
        all.insert(all.end(), b.begin(), b.end());
        burst_bests.push_back(*std::max_element(b.begin(), b.end()));
    }
    const int rejected = stats.rejected_bursts;
    stats = summarize(all);
    stats.rejected_bursts = rejected;
    stats.bursts = static_cast<int>(burst_bests.size());
    stats.quantile = q;
    if (burst_bests.empty()) return 0;
    const double value = quantile(burst_bests, q);
    int near_top = 0;
    for (double m : burst_bests) near_top += m >= value * (1 - agreement);
    stats.stable = near_top >= 2;
    return value;
}

} // namespace roofline
