#include "core/data_movement.hpp"

#include <algorithm>

namespace roofline {

std::optional<DataMovement> data_movement(const Roofline& r, const Point& p, View view) {
    if (!(p.seconds > 0)) return std::nullopt;
    const auto levels = bounding_levels(r, p, view);
    DataMovement out;
    double nearest = -1;
    for (const auto& roof : r.bandwidth) {
        if (!(roof.value > 0)) continue;
        // Counted as none (the cache simulation found no traffic there: L3 of a transpose held in
        // L2) is judged, at 0 GB/s: a level with no count at all is not.
        const auto counted = p.bytes.find(roof.level);
        const bool counted_none = counted != p.bytes.end() && counted->second == 0 &&
                                  (view != View::orm || roof.level == "DRAM");
        if (!counted_none && std::find(levels.begin(), levels.end(), roof.level) == levels.end()) {
            if (std::find(out.unjudged_levels.begin(), out.unjudged_levels.end(), roof.level) == out.unjudged_levels.end())
                out.unjudged_levels.push_back(roof.level);
            continue;
        }
        LevelBandwidth t;
        t.level = roof.level;
        t.bytes = counted_none ? 0 : p.bytes.at(roof.level);
        t.gbs = t.bytes / p.seconds / 1e9;
        t.roof = roof.name;
        t.roof_gbs = roof.value;
        t.share = t.gbs / roof.value;
        t.above_roof = t.share > 1 + std::max(roof.spread, 0.03);
        if (!t.above_roof && t.share > nearest) {
            nearest = t.share;
            out.nearest_level = t.level;
        }
        out.levels.push_back(std::move(t));
    }
    // No bytes anywhere: nothing moved to judge (counted-as-none levels alone are no traffic).
    if (std::none_of(out.levels.begin(), out.levels.end(), [](const LevelBandwidth& t) { return t.bytes > 0; }))
        return std::nullopt;
    // A level above its roof: the point's time or bytes cannot be trusted, so no level is its bound.
    if (out.above_roof()) out.nearest_level.clear();
    out.llc_near_full = llc_near_full(p);
    out.rep_string_fill = rep_string_fill(p);
    return out;
}

bool DataMovement::above_roof() const {
    return std::any_of(levels.begin(), levels.end(), [](const LevelBandwidth& t) { return t.above_roof; });
}

} // namespace roofline
