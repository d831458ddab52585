#include "measure/function_list.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <set>
#include <string>

namespace roofline::measure {
namespace {

double total_flops(const std::vector<RegionCounts>& functions) {
    double t = 0;
    for (const auto& f : functions) t += f.total_flops();
    return t;
}

double bytes_of(const RegionCounts& f) { return f.bytes_loaded + f.bytes_stored; }

} // namespace

bool is_marker_library(const std::string& file) {
    return std::filesystem::path(file).filename().string().rfind("libroofline_marker", 0) == 0;
}

bool is_marker_internal(const RegionCounts& function) { return is_marker_library(function.object); }

std::vector<RegionCounts> significant_functions(const std::vector<RegionCounts>& functions,
                                                const SamplingResult* sampling, double min_share) {
    const double flops = total_flops(functions);
    double bytes = 0, seconds = 0;
    for (const auto& f : functions) bytes += bytes_of(f);
    if (sampling)
        for (const auto& [name, t] : sampling->functions) seconds += t.seconds;
    std::vector<RegionCounts> out;
    for (const auto& f : functions) {
        if (is_marker_internal(f)) continue;
        double time = 0;
        if (sampling) {
            const auto it = sampling->functions.find(f.name);
            if (it != sampling->functions.end()) time = it->second.seconds;
        }
        const bool big = (flops > 0 && f.total_flops() >= min_share * flops) ||
                         (bytes > 0 && bytes_of(f) >= min_share * bytes) || (seconds > 0 && time >= min_share * seconds);
        if (big) out.push_back(f);
    }
    std::sort(out.begin(), out.end(), [](const RegionCounts& a, const RegionCounts& b) {
        if (a.total_flops() != b.total_flops()) return a.total_flops() > b.total_flops();
        return bytes_of(a) > bytes_of(b);
    });
    return out;
}

std::vector<RegionCounts> functions_worth_a_point(const std::vector<RegionCounts>& shown,
                                                  const std::vector<RegionCounts>& all, double min_share) {
    const double flops = total_flops(all);
    std::vector<RegionCounts> out;
    for (const auto& f : shown)
        if (f.total_flops() > 0 && f.total_flops() >= min_share * flops) out.push_back(f);
    return out;
}

FunctionListShare function_list_share(const std::vector<RegionCounts>& functions,
                                      const std::vector<RegionCounts>& shown, const SamplingResult* sampling,
                                      double min_share) {
    FunctionListShare out;
    out.listed = shown.size();
    out.all_flops = total_flops(functions);
    double all_bytes = 0;
    for (const auto& f : functions) all_bytes += bytes_of(f);
    const auto seconds_of = [&](const std::string& name) {
        if (!sampling) return 0.0;
        const auto it = sampling->functions.find(name);
        return it == sampling->functions.end() ? 0.0 : it->second.seconds;
    };
    double all_seconds = 0;
    if (sampling)
        for (const auto& [name, t] : sampling->functions) all_seconds += t.seconds;
    std::set<std::string> listed;
    double listed_seconds = 0;
    for (const auto& f : shown) {
        listed.insert(f.name);
        out.listed_flops += f.total_flops();
        listed_seconds += seconds_of(f.name);
    }
    if (sampling) out.all_seconds = all_seconds, out.listed_seconds = listed_seconds;
    // The largest share a left-out function holds of the FLOPs (else of anything --min-share
    // judges by): the lower --min-share offered is at or under it, as the table's line says.
    double largest_share = 0;
    if (sampling) out.left_out_seconds = 0.0;
    for (const auto& f : functions) {
        if (is_marker_internal(f) || listed.contains(f.name)) continue;
        ++out.left_out;
        if (sampling) *out.left_out_seconds += seconds_of(f.name);
        out.left_out_flops += f.total_flops();
        out.largest_left_out_flops = std::max(out.largest_left_out_flops, f.total_flops());
        if (out.all_flops > 0) largest_share = std::max(largest_share, f.total_flops() / out.all_flops);
        if (all_bytes > 0) largest_share = std::max(largest_share, bytes_of(f) / all_bytes);
        if (all_seconds > 0) largest_share = std::max(largest_share, seconds_of(f.name) / all_seconds);
    }
    if (out.largest_left_out_flops > 0) largest_share = out.largest_left_out_flops / out.all_flops;
    if (largest_share >= min_share) return out;
    // What a lower --min-share lists is counted by the very rule the table uses.
    const auto lower = lower_min_share(largest_share, [&](double percent) {
        const auto more = significant_functions(functions, sampling, percent / 100).size();
        return more > shown.size() ? more - shown.size() : 0;
    });
    out.lower_min_share_percent = lower.percent;
    out.lower_lists = lower.lists;
    return out;
}

void ListedShareTally::add(bool listed, double self_flops, double self_samples, double share) {
    if (listed) {
        ++share_.listed;
        share_.listed_flops += self_flops;
        listed_samples_ += self_samples;
        return;
    }
    ++share_.left_out;
    share_.left_out_flops += self_flops;
    left_out_samples_ += self_samples;
    share_.largest_left_out_flops = std::max(share_.largest_left_out_flops, self_flops);
    largest_left_out_share_ = std::max(largest_left_out_share_, share);
    left_out_shares_.push_back(share);
}

FunctionListShare ListedShareTally::finish(std::optional<double> all_samples, double seconds_per_sample) const {
    FunctionListShare out = share_;
    if (all_samples && *all_samples > 0) {
        out.all_seconds = *all_samples * seconds_per_sample;
        out.listed_seconds = listed_samples_ * seconds_per_sample;
        out.left_out_seconds = left_out_samples_ * seconds_per_sample;
    }
    // A lower --min-share lists the left-out rows at or over it (a row's share is its own rule's).
    const auto lower = lower_min_share(largest_left_out_share_, [&](double percent) {
        return static_cast<std::size_t>(std::count_if(left_out_shares_.begin(), left_out_shares_.end(),
                                                      [&](double s) { return s >= percent / 100; }));
    });
    out.lower_min_share_percent = lower.percent;
    out.lower_lists = lower.lists;
    return out;
}

LowerMinShare lower_min_share(double largest_share, const std::function<std::size_t(double percent)>& lists_more) {
    if (!(largest_share > 0)) return {};
    const double percent = largest_share * 100;
    const int decade = static_cast<int>(std::floor(std::log10(percent)));
    for (int d = decade; d >= decade - 1; --d)
        for (const char* step : {"5", "2", "1"}) {
            // Read from its decimal text, so that it prints as it reads ("0.05", not 0.05000000000000001).
            const double candidate = std::strtod((step + ("e" + std::to_string(d))).c_str(), nullptr);
            if (candidate > percent) continue;
            if (const auto more = lists_more(candidate); more > 0) return {candidate, more};  // as --min-share reads it
        }
    return {};
}

} // namespace roofline::measure
