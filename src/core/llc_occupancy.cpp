#include "core/llc_occupancy.hpp"

#include "core/byte_sizes.hpp"
#include "core/roofline.hpp"

#include <fmt/format.h>

#include <cmath>

namespace roofline {

namespace {

double detail(const Point& p, const std::string& key) {
    const auto it = p.details.find(key);
    return it != p.details.end() && std::isfinite(it->second) && it->second > 0 ? it->second : 0.0;
}

} // namespace

std::optional<LlcNearFull> llc_near_full(const Point& p) {
    LlcNearFull n;
    n.llc_bytes = detail(p, kCacheLlcBytes);
    n.llc_level = static_cast<int>(detail(p, kCacheLlcLevel));
    // An LLC of level 1 has no level above it to re-read from.
    if (!(n.llc_bytes > 0) || n.llc_level < 2) return std::nullopt;
    n.dram_read_bytes = detail(p, "cache_DRAM_read_bytes");
    n.llc_read_bytes = detail(p, fmt::format("cache_L{}_read_bytes", n.llc_level));
    n.touched_bytes = detail(p, kCacheTouchedBytes);
    if (!(n.touched_bytes > 0)) {
        n.touched_counted = false;
        n.touched_bytes = n.dram_read_bytes;
    }
    n.share = n.touched_bytes / n.llc_bytes;
    if (n.share < kLlcNearFullShare || n.share > kLlcWellOverShare) return std::nullopt;
    if (!(n.llc_read_bytes > 0) || n.llc_read_bytes < kLlcRereadRatio * n.dram_read_bytes) return std::nullopt;
    return n;
}

std::string llc_near_full_text(const LlcNearFull& n) {
    const std::string level = fmt::format("L{}", n.llc_level);
    // Past the capacity (up to 1.5x) LRU still keeps most of it: "is 1.2x the simulated 2 MiB L3".
    const std::string share = n.share <= 1 ? fmt::format("fills {:.0f}% of", 100 * n.share)
                                           : fmt::format("is {:.2g}x", n.share);
    return fmt::format("the data it touched ({} {}) {} the simulated {} {}; a real {} (shared, not LRU) "
                       "spills some of it: DRAM bytes here are a lower bound",
                       n.touched_counted ? "about" : "at least", format_bytes(static_cast<std::uint64_t>(n.touched_bytes)),
                       share, format_bytes(static_cast<std::uint64_t>(n.llc_bytes)), level, level);
}

} // namespace roofline
