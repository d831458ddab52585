#include "core/repeated_timing.hpp"

#include "core/statistics.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace roofline {

RepeatPlan plan_repeats(const RepeatRequest& request, double first_seconds) {
    RepeatPlan plan;
    if (request.timed_runs > 0) {
        plan.timed = std::min(request.timed_runs, kMaxRepeat);
        plan.warmup = request.warmup_runs >= 0 ? std::min(request.warmup_runs, kMaxRepeat) : (plan.timed > 1 ? 1 : 0);
        return plan;
    }
    plan.automatic = true;
    // Runs that fit the budget at the first run's length, the first included.
    const double fit = first_seconds > 0 ? std::floor(kAutoRepeatBudgetSeconds / first_seconds) : kAutoTimedRuns + 1.0;
    const int warmup = request.warmup_runs >= 0 ? std::min(request.warmup_runs, kMaxRepeat) : 1;
    if (fit < warmup + 2.0) {
        // No room for two timed runs: the first run is the timing, as before --repeat.
        plan.timed = 1;
        plan.warmup = 0;
        return plan;
    }
    plan.warmup = warmup;
    plan.timed = static_cast<int>(std::min<double>(kAutoTimedRuns, fit - warmup));
    return plan;
}

std::uint64_t cold_flush_bytes(const std::vector<CacheLevel>& caches) {
    std::uint64_t largest = 0;
    for (const auto& c : caches) largest = std::max(largest, c.size_bytes);
    if (largest == 0) return kColdFlushUnknownBytes;
    constexpr std::uint64_t mib = 1ull << 20;
    const std::uint64_t twice = 2 * std::min(largest, kColdFlushMaxBytes);  // (no overflow from a wild size)
    const std::uint64_t whole_mib = (twice + mib - 1) / mib * mib;
    return std::clamp(whole_mib, kColdFlushMinBytes, kColdFlushMaxBytes);
}

TimingSummary summarize_runs(const std::vector<double>& timed, const std::vector<double>& warmup) {
    if (timed.empty()) throw std::invalid_argument("no timed run to summarize");
    TimingSummary t;
    t.runs = static_cast<int>(timed.size());
    t.fastest = *std::min_element(timed.begin(), timed.end());
    t.slowest = *std::max_element(timed.begin(), timed.end());
    t.median = median(timed);
    t.warmup_runs = static_cast<int>(warmup.size());
    if (!warmup.empty()) t.warmup_seconds = warmup.front();
    return t;
}

void record_timing(Point& p, const TimingSummary& t) {
    p.seconds = t.fastest;
    p.details[kRunsDetail] = t.runs;
    // One run has no spread: compare and history then allow their default for an unknown one,
    // not the 2% a spread of 0 would give.
    if (t.runs > 1) {
        p.details["seconds_fastest"] = t.fastest;
        p.details["seconds_median"] = t.median;
        p.details["seconds_slowest"] = t.slowest;
        p.details["seconds_spread"] = t.spread();
    }
    if (t.warmup_runs > 0) {
        p.details["warmup_runs"] = t.warmup_runs;
        p.details["seconds_warmup"] = t.warmup_seconds;
    }
}

std::optional<TimingSummary> timing_of(const Point& p) {
    const auto get = [&](const char* key) -> std::optional<double> {
        const auto it = p.details.find(key);
        if (it == p.details.end() || !std::isfinite(it->second)) return std::nullopt;
        return it->second;
    };
    const auto runs = get(kRunsDetail);
    if (!runs || *runs < 1) return std::nullopt;
    TimingSummary t;
    t.runs = static_cast<int>(*runs);
    t.fastest = get("seconds_fastest").value_or(p.seconds);
    t.slowest = std::max(t.fastest, get("seconds_slowest").value_or(t.fastest));
    t.median = get("seconds_median").value_or(t.fastest);
    if (const auto w = get("seconds_warmup")) {
        t.warmup_runs = std::max(1, static_cast<int>(get("warmup_runs").value_or(1)));
        t.warmup_seconds = *w;
    }
    return t;
}

} // namespace roofline
