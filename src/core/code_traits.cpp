#include "core/code_traits.hpp"

#include <algorithm>
#include <cmath>
#include <string>
#include <string_view>

namespace roofline {
namespace {

std::optional<double> detail(const Point& p, const std::string& key) {
    const auto it = p.details.find(key);
    if (it == p.details.end() || !std::isfinite(it->second) || it->second < 0) return std::nullopt;
    return it->second;
}

} // namespace

CodeTraits code_traits(const Point& p) {
    CodeTraits t;
    double by_width = 0;
    double scalar = 0;
    for (const auto& [key, value] : p.details) {
        constexpr std::string_view prefix = "flops_by_width_";
        if (key.compare(0, prefix.size(), prefix) != 0 || !std::isfinite(value) || value <= 0) continue;
        const std::string width = key.substr(prefix.size());
        by_width += value;
        if (width == "scalar") {
            scalar += value;
        } else {
            try {
                t.widest_bits = std::max(t.widest_bits, std::stoi(width));
            } catch (const std::exception&) {
            }
        }
    }
    if (by_width > 0) t.scalar_share = scalar / by_width;

    double fma = 0;
    bool any_fma_count = false;
    for (const char* key : {"flops_f64_fma", "flops_f32_fma"})
        if (const auto v = detail(p, key)) fma += *v, any_fma_count = true;
    if (any_fma_count && p.work_counted && p.work > 0) t.fma_share = std::min(1.0, fma / p.work);

    const auto loaded = detail(p, "bytes_loaded");
    const auto stored = detail(p, "bytes_stored");
    if (loaded && stored && *loaded + *stored > 0) t.store_share = *stored / (*loaded + *stored);
    return t;
}

double one_chain_gflops(double clock_ghz, int threads, double fma_share, double latency_cycles) {
    if (!(clock_ghz > 0) || threads < 1 || !(latency_cycles > 0)) return 0;
    // An FMA result is two FLOPs; a share f of the FLOPs from FMAs means f/2 of the results are FMAs.
    const double flops_per_result = 1 + std::clamp(fma_share, 0.0, 1.0) / (2 - std::clamp(fma_share, 0.0, 1.0));
    return clock_ghz / latency_cycles * flops_per_result * threads;
}

} // namespace roofline
