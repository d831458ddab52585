#include "core/dirty_at_end.hpp"

#include "core/roofline.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace roofline {

std::optional<DirtyAtEnd> dirty_at_end(const Point& p, std::optional<double> run_end_dirty_bytes) {
    const auto dram = p.bytes.find("DRAM");
    if (dram == p.bytes.end() || !std::isfinite(dram->second) || dram->second < 0) return std::nullopt;
    DirtyAtEnd d;
    d.dram_bytes = dram->second;
    const auto up_to = p.details.find(kCacheDirtyAtExitUpToBytes);
    const bool lost_writers = up_to != p.details.end() && std::isfinite(up_to->second) && up_to->second >= 0;
    if (const auto exact = p.details.find(kCacheDirtyAtExitBytes); exact != p.details.end() && !lost_writers) {
        // The tool's own count of the point's lines: 0 (a region that closed early, its lines
        // evicted and counted since) is no note, never the shared bound below.
        if (!std::isfinite(exact->second) || exact->second <= 0) return std::nullopt;
        d.unwritten_bytes = exact->second;
        d.exact = true;
    } else {
        const auto own = p.details.find(kCacheDirtyAtEndBytes);
        if (own == p.details.end() || !std::isfinite(own->second) || own->second <= 0) return std::nullopt;
        d.unwritten_bytes = own->second;
        if (run_end_dirty_bytes && std::isfinite(*run_end_dirty_bytes) && *run_end_dirty_bytes >= 0)
            d.unwritten_bytes = std::min(d.unwritten_bytes, *run_end_dirty_bytes);
        // Past the tool's writer contexts: its own lines, with every line that had no writer (the
        // tool's bound; without it 1.5 MiB left dirty by such a region read as 0, no note).
        if (lost_writers) d.unwritten_bytes = std::min(d.unwritten_bytes, up_to->second);
    }
    if (d.unwritten_bytes < kDirtyAtEndFloorBytes || d.unwritten_bytes < kDirtyAtEndShare * d.dram_bytes)
        return std::nullopt;
    return d;
}

std::string dirty_at_end_text(const DirtyAtEnd& d) {
    const auto mb = [](double b) { return fmt::format("{:.3g} MB", b / 1e6); };
    if (d.exact)
        return fmt::format("{} of its write-backs are counted nowhere: lines its stores made dirty were still dirty in "
                           "the simulated caches when the run ended, which the cache simulation never writes back (the "
                           "hardware does, after the run); its DRAM bytes, {}, lack them (with them {})",
                           mb(d.unwritten_bytes), mb(d.dram_bytes), mb(d.dram_bytes + d.unwritten_bytes));
    return fmt::format("up to {} of its write-backs are counted nowhere: lines still dirty in the simulated caches when "
                       "the run ended, which the cache simulation never writes back (the hardware does, after the "
                       "run); its DRAM bytes, {}, may lack them (with them up to {})",
                       mb(d.unwritten_bytes), mb(d.dram_bytes),
                       mb(d.dram_bytes + d.unwritten_bytes));
}

} // namespace roofline
