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
        if (std::find(levels.begin(), levels.end(), roof.level) == levels.end()) {
            if (std::find(out.unjudged_levels.begin(), out.unjudged_levels.end(), roof.level) == out.unjudged_levels.end())
                out.unjudged_levels.push_back(roof.level);
            continue;
        }
        LevelBandwidth t;
        t.level = roof.level;
        t.bytes = p.bytes.at(roof.level);
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
    if (out.levels.empty()) return std::nullopt;
    // A level above its roof: the point's time or bytes cannot be trusted, so no level is its bound.
    if (out.above_roof()) out.nearest_level.clear();
    return out;
}

bool DataMovement::above_roof() const {
    return std::any_of(levels.begin(), levels.end(), [](const LevelBandwidth& t) { return t.above_roof; });
}

} // namespace roofline
