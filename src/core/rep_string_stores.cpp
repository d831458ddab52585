#include "core/rep_string_stores.hpp"

#include "core/level.hpp"
#include "core/roofline.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace roofline {

namespace {

std::string mb(double b) { return fmt::format("{:.3g} MB", b / 1e6); }

} // namespace

std::string rep_string_fill_key(const std::string& level) { return "cache_" + level + "_rep_string_fill_bytes"; }

std::optional<RepStringLevel> rep_string_fill_at(const Point& p, const std::string& level) {
    const auto fill = p.details.find(rep_string_fill_key(level));
    const auto bytes = p.bytes.find(level);
    if (fill == p.details.end() || bytes == p.bytes.end()) return std::nullopt;
    if (!std::isfinite(fill->second) || !std::isfinite(bytes->second) || bytes->second <= 0) return std::nullopt;
    if (fill->second < kRepStringFillFloorBytes || fill->second < kRepStringFillShare * bytes->second)
        return std::nullopt;
    return RepStringLevel{level, fill->second, bytes->second};
}

std::optional<RepStringFill> rep_string_fill(const Point& p) {
    RepStringFill f;
    for (const auto& [level, bytes] : p.bytes)
        if (const auto l = rep_string_fill_at(p, level)) f.levels.push_back(*l);
    if (f.levels.empty()) return std::nullopt;
    std::sort(f.levels.begin(), f.levels.end(),
              [](const auto& a, const auto& b) { return level_before(a.level, b.level); });
    if (const auto s = p.details.find(kCacheRepStringStoredBytes); s != p.details.end() && std::isfinite(s->second))
        f.stored_bytes = std::max(0.0, s->second);
    return f;
}

std::string rep_string_fill_text(const RepStringFill& f) {
    std::string levels;
    for (const auto& l : f.levels)
        levels += fmt::format("{}{} at {} (of {})", levels.empty() ? "" : ", ", mb(l.fill_bytes), l.level,
                              mb(l.level_bytes));
    const std::string who = f.stored_bytes > 0 ? fmt::format("{} of its stores were", mb(f.stored_bytes))
                                               : std::string("its stores were largely");
    return fmt::format("{} REP STOS/MOVS string instructions (memset, and memcpy/memmove's erms variants): the cache "
                       "simulation read each line they missed from the level below before writing it (write-allocate), "
                       "but CPUs with fast strings (ERMS/FSRM) may write whole lines without that read (Intel SDM vol. "
                       "3A, fast-string operation), so its bytes may be too many by up to {}",
                       who, levels);
}

std::string rep_string_above_roof_text(const RepStringLevel& l) {
    return fmt::format("up to {} of its {} at {} are write-allocate reads for REP STOS/MOVS stores (memset, memcpy), "
                       "which fast-string stores may skip",
                       mb(l.fill_bytes), mb(l.level_bytes), l.level);
}

} // namespace roofline
