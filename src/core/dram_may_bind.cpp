#include "core/dram_may_bind.hpp"

#include "core/byte_sizes.hpp"
#include "core/llc_occupancy.hpp"
#include "core/roofline.hpp"

#include <fmt/core.h>

#include <algorithm>
#include <cmath>

namespace roofline {

std::optional<DramMayBind> dram_may_bind(const Roofline& r, const Point& p, const LlcNearFull& n, double attainable) {
    if (!p.work_counted || !(p.work > 0) || !(p.seconds > 0) || !(n.llc_read_bytes > 0)) return std::nullopt;
    const Roof* dram = nullptr;
    for (const auto& b : r.bandwidth)
        if (b.level == "DRAM") dram = &b;
    if (!dram || !(dram->value > 0)) return std::nullopt;
    const auto it = p.bytes.find("DRAM");
    const double counted = it != p.bytes.end() && it->second > 0 ? it->second : 0;
    // Each byte re-read from the LLC once, from DRAM; but no more than the roof moves in its time.
    const double moved_at_roof = dram->value * 1e9 * p.seconds;
    const double upper = std::max(counted, std::min(counted + n.llc_read_bytes, moved_at_roof));
    if (!(upper > counted)) return std::nullopt;
    DramMayBind d;
    d.roof = dram->name;
    d.dram_bytes = counted;
    d.dram_bytes_upper = upper;
    d.upper_from_time = moved_at_roof < counted + n.llc_read_bytes;
    d.intensity = p.work / upper;
    d.attainable = std::min(r.compute.value, dram->value * d.intensity);
    // Within 5% of the bound already given: the same verdict.
    if (!(d.attainable < 0.95 * attainable)) return std::nullopt;
    return d;
}

std::string dram_may_bind_text(const DramMayBind& d, const std::string& binding_roof, double binding_attainable,
                               const std::string& llc_level) {
    const std::string upper =
        d.upper_from_time
            ? fmt::format("up to {}, what that roof moves in its time, not {}", format_bytes(std::uint64_t(d.dram_bytes_upper)),
                          format_bytes(std::uint64_t(d.dram_bytes)))
            : fmt::format("{} in all, not {}", format_bytes(std::uint64_t(d.dram_bytes_upper)),
                          format_bytes(std::uint64_t(d.dram_bytes)));
    return fmt::format("its DRAM bytes are a lower bound: were the bytes it re-read from the {} read from DRAM "
                       "instead ({}), the {} roof would cap it at {:.3g} GFLOP/s ({:.3g} FLOP/B at DRAM), "
                       "below the {:.3g} GFLOP/s of {}: it may be DRAM-bound, and its bound lies between the two; "
                       "count its DRAM traffic with hardware counters (the perf engine) where the CPU has them",
                       llc_level, upper, d.roof, d.attainable, d.intensity,
                       binding_attainable, binding_roof);
}

} // namespace roofline
