#include "measure/function_list.hpp"

#include <algorithm>
#include <filesystem>

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

} // namespace roofline::measure
