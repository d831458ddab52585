#include "measure/function_regions.hpp"

#include <fmt/core.h>

#include <algorithm>
#include <cmath>
#include <set>

namespace roofline::measure {
namespace {

bool is_matched(const RegionCounts& region, const std::string& symbol) {
    const auto f = folded_function_name(symbol);
    return std::find(region.matched.begin(), region.matched.end(), f) != region.matched.end();
}

bool close(double a, double b) { return std::fabs(a - b) <= 0.01 * std::max(std::fabs(a), std::fabs(b)); }

// "ns::Grid<double>::sweep(int) [clone .isra.0]" -> "sweep"
std::string short_name(const std::string& name) {
    std::string s = folded_function_name(name);
    const auto paren = s.find('(');
    if (paren != std::string::npos && paren > 0) s.resize(paren);
    const auto colons = s.rfind("::");
    if (colons != std::string::npos) s = s.substr(colons + 2);
    return s;
}

std::size_t edit_distance(const std::string& a, const std::string& b) {
    std::vector<std::size_t> row(b.size() + 1);
    for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
    for (std::size_t i = 1; i <= a.size(); ++i) {
        std::size_t diag = row[0];
        row[0] = i;
        for (std::size_t j = 1; j <= b.size(); ++j) {
            const std::size_t up = row[j];
            row[j] = std::min({row[j] + 1, row[j - 1] + 1, diag + (a[i - 1] == b[j - 1] ? 0 : 1)});
            diag = up;
        }
    }
    return row[b.size()];
}

} // namespace

std::string function_of_region(const std::string& region) {
    const std::string prefix = "<function ";
    if (region.rfind(prefix, 0) != 0 || region.size() <= prefix.size() + 1 || region.back() != '>') return {};
    return region.substr(prefix.size(), region.size() - prefix.size() - 1);
}

std::vector<std::string> functions_to_time(const std::vector<RegionCounts>& counts, long long max_timed_calls) {
    std::vector<std::string> out;
    for (const auto& c : counts) {
        if (function_of_region(c.name).empty() || c.calls > max_timed_calls) continue;
        for (const auto& m : c.matched)
            if (std::find(out.begin(), out.end(), m) == out.end()) out.push_back(m);
    }
    return out;
}

bool is_leaf(const RegionCounts& region, const std::vector<RegionCounts>& exclusive) {
    double flops = 0, bytes = 0;
    bool any = false;
    for (const auto& f : exclusive) {
        if (!is_matched(region, f.name)) continue;
        any = true;
        flops += f.total_flops();
        bytes += f.bytes_loaded + f.bytes_stored;
    }
    return any && close(flops, region.total_flops()) && close(bytes, region.bytes_loaded + region.bytes_stored);
}

FunctionRegionTime function_region_time(const RegionCounts& region, const std::vector<RegionCounts>& exclusive,
                                        const CallTimingResult* timing, const SamplingResult* sampling,
                                        long long max_timed_calls) {
    FunctionRegionTime t;
    std::string why_not_timed;
    if (region.calls > max_timed_calls) {
        why_not_timed = fmt::format("called {} times, more than are timed call by call ({}, --max-timed-calls)",
                                    region.calls, max_timed_calls);
    } else if (!timing) {
        why_not_timed = "its calls were not timed";
    } else {
        long long calls = 0, unfinished = 0, unwound = 0;
        int breakpoints = 0;
        double seconds = 0;
        for (const auto& f : timing->functions) {
            if (std::find(region.matched.begin(), region.matched.end(), f.name) == region.matched.end()) continue;
            calls += f.calls;
            unfinished += f.unfinished;
            unwound += f.unwound;
            breakpoints += f.breakpoints;
            seconds += f.seconds;
        }
        // Calls not much longer than the stop overhead taken off each cannot be timed this way.
        const double per_call = calls > 0 ? seconds / static_cast<double>(calls) : 0;
        if (unfinished > 0)
            why_not_timed = fmt::format(
                "{} of its calls never returned (longjmp, exit, or their thread ended), so their time is unknown",
                unfinished);
        else if (calls == 0)
            why_not_timed = !timing->ok ? "timing its calls failed: " + timing->error
                            : breakpoints == 0
                                ? "not found in the program's files when it started (a library opened later by dlopen?)"
                                : "no call returned in the timed run";
        else if (per_call < 2 * timing->stop_seconds)
            why_not_timed = fmt::format("its calls ({:.3g} us each) are too short to time through ptrace stops "
                                        "({:.3g} us each)",
                                        per_call * 1e6, timing->stop_seconds * 1e6);
        if (why_not_timed.empty()) {
            t.source = TimeSource::timed_calls;
            t.seconds = seconds;
            t.timed_calls = calls;
            t.note = fmt::format("wall time of {} call{} timed at entry and return, less {:.3g} us each for the stop",
                                 calls, calls == 1 ? "" : "s", timing->stop_seconds * 1e6);
            if (calls < region.calls)
                t.note += fmt::format("; {} more ran inside them (recursion, or other threads meanwhile)",
                                      region.calls - calls);
            if (unwound > 0) t.note += fmt::format("; {} left by an exception, timed up to the throw", unwound);
            return t;
        }
    }
    if (sampling && is_leaf(region, exclusive)) {
        long long samples = 0;
        double seconds = 0;
        for (const auto& [name, f] : sampling->functions) {
            if (!is_matched(region, name)) continue;
            samples += f.samples;
            seconds += f.seconds;
        }
        if (samples > 0) {
            t.source = TimeSource::leaf_self_time;
            t.seconds = seconds;
            t.samples = samples;
            t.note = fmt::format("self CPU time of a leaf, {} samples ({})", samples, why_not_timed);
            return t;
        }
        why_not_timed += "; no samples in it";
    } else if (sampling) {
        why_not_timed += "; its callees or other threads do part of its work, so its self time would not do";
    }
    t.note = "unknown: " + why_not_timed;
    return t;
}

std::vector<std::string> closest_names(const std::string& wanted, const std::vector<std::string>& candidates,
                                       std::size_t count) {
    const std::string key = short_name(wanted);
    std::vector<std::pair<std::size_t, std::string>> scored;
    std::set<std::string> seen;
    for (const auto& c : candidates) {
        const std::string name = folded_function_name(c);
        if (!seen.insert(name).second) continue;
        const std::string k = short_name(name);
        std::size_t d = edit_distance(key, k);
        const bool contains = key.size() >= 3 && (k.find(key) != std::string::npos || key.find(k) != std::string::npos);
        if (contains) d = std::min<std::size_t>(d, 1);
        if (d <= std::max<std::size_t>(1, key.size() / 3) || contains) scored.emplace_back(d, name);
    }
    std::stable_sort(scored.begin(), scored.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    std::vector<std::string> out;
    for (const auto& [d, name] : scored) {
        if (out.size() == count) break;
        out.push_back(name);
    }
    return out;
}

} // namespace roofline::measure
