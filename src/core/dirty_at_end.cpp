#include "core/dirty_at_end.hpp"

#include "core/roofline.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace roofline {

std::optional<DirtyAtEnd> dirty_at_end(const Point& p, std::optional<double> run_end_dirty_bytes) {
    const auto own = p.details.find(kCacheDirtyAtEndBytes);
    const auto dram = p.bytes.find("DRAM");
    if (own == p.details.end() || !std::isfinite(own->second) || own->second <= 0 || dram == p.bytes.end() ||
        !std::isfinite(dram->second) || dram->second < 0)
        return std::nullopt;
    DirtyAtEnd d;
    d.unwritten_bytes = own->second;
    if (run_end_dirty_bytes && std::isfinite(*run_end_dirty_bytes) && *run_end_dirty_bytes >= 0)
        d.unwritten_bytes = std::min(d.unwritten_bytes, *run_end_dirty_bytes);
    d.dram_bytes = dram->second;
    if (d.unwritten_bytes < kDirtyAtEndFloorBytes || d.unwritten_bytes < kDirtyAtEndShare * d.dram_bytes)
        return std::nullopt;
    return d;
}

std::string dirty_at_end_text(const DirtyAtEnd& d) {
    const auto mb = [](double b) { return fmt::format("{:.3g} MB", b / 1e6); };
    return fmt::format("up to {} of its write-backs are counted nowhere: lines still dirty in the simulated caches when "
                       "the run ended, which the cache simulation never writes back (the hardware does, after the "
                       "run); its DRAM bytes, {}, may lack them (with them up to {})",
                       mb(d.unwritten_bytes), mb(d.dram_bytes),
                       mb(d.dram_bytes + d.unwritten_bytes));
}

} // namespace roofline
