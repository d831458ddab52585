#include "core/cache_check.hpp"

#include "core/byte_sizes.hpp"

#include <fmt/core.h>

#include <algorithm>
#include <cmath>

namespace roofline {
namespace {

constexpr std::uint64_t KiB = 1024, MiB = 1024 * KiB, GiB = 1024 * MiB;

// A measured end within this factor of the believed size agrees with it: a
// level's end on the curve is blurred by the other data in the cache, pseudo-LRU
// replacement and, on AMD, the L3 holding L2's victims (one thread sees L2 + L3).
constexpr double kAgreeFactor = 2.5;
// A measured end this close to a size the table lists is that size.
constexpr double kSnapFactor = 1.5;

double log_distance(double a, double b) { return std::abs(std::log(a / b)); }

// The table's or the generic range as the check reads it.
bool within(const CacheSizeRange& range, const CacheLevel& c) {
    if (c.size_bytes < range.min_bytes || c.size_bytes > range.max_bytes) return false;
    const std::uint64_t per_core = c.size_bytes / static_cast<std::uint64_t>(std::max(1, c.shared_by_cores));
    return range.max_bytes_per_core == 0 || per_core <= range.max_bytes_per_core;
}

std::string range_text(const CacheSizeRange& range) {
    std::string out = range.min_bytes == range.max_bytes
                          ? format_bytes(range.max_bytes)
                          : fmt::format("{} to {}", format_bytes(range.min_bytes), format_bytes(range.max_bytes));
    if (range.max_bytes_per_core) out += fmt::format(", at most {} per core", format_bytes(range.max_bytes_per_core));
    return out;
}

// The size a level is believed to have when the report is not: the table's
// only size, or its most common; 0 when nothing says.
std::uint64_t table_size(const CacheSizeRange& range) {
    if (range.known_bytes.empty()) return range.min_bytes == range.max_bytes ? range.max_bytes : 0;
    return range.known_bytes.front();  // the table lists the commonest first
}

// A measured end taken as a size: the table's size it is close to, if any.
std::uint64_t snapped(std::uint64_t measured, const CacheSizeRange& range) {
    std::vector<std::uint64_t> candidates = range.known_bytes;
    if (range.min_bytes == range.max_bytes && range.max_bytes) candidates.push_back(range.max_bytes);
    std::uint64_t best = measured;
    double best_distance = std::log(kSnapFactor);
    for (const std::uint64_t size : candidates) {
        const double d = log_distance(static_cast<double>(measured), static_cast<double>(size));
        if (d <= best_distance) best = size, best_distance = d;
    }
    return best;
}

// Where the curve, between points `from` and `to`, first falls through `level` (log-log
// interpolation between the two points around it); the size at `to` when it does not.
double crossing_size(const std::vector<std::pair<std::uint64_t, double>>& curve, std::size_t from, std::size_t to,
                     double level) {
    for (std::size_t j = from; j + 1 <= to && j + 1 < curve.size(); ++j) {
        const double b0 = curve[j].second, b1 = curve[j + 1].second;
        if (b0 >= level && b1 < level) {
            const double x0 = std::log(static_cast<double>(curve[j].first));
            const double x1 = std::log(static_cast<double>(curve[j + 1].first));
            const double t = (std::log(b0) - std::log(level)) / (std::log(b0) - std::log(b1));
            return std::exp(x0 + t * (x1 - x0));
        }
    }
    return static_cast<double>(curve[std::min(to, curve.size() - 1)].first);
}

// Plateaus closer than this cannot place the end between them (Zen 4's L2 and
// L3 run within 15% of each other for one thread).
constexpr double kResolvableStep = 1.3;

double best_in(const std::vector<std::pair<std::uint64_t, double>>& curve, double lo, double hi) {
    double best = 0;
    for (const auto& [bytes, gbs] : curve)
        if (static_cast<double>(bytes) >= lo && static_cast<double>(bytes) <= hi) best = std::max(best, gbs);
    return best;
}

// Where each level ends on the curve (0: not measured). Every level is
// anchored at its believed size; a doubted one at an end the curve shows by
// itself away from the others. The level's plateau is the best rate between
// the level above's end and half its size, the next one's the best in the
// next level (DRAM: the median of the curve's last octave), and the end is
// where the curve first falls through their geometric mean and stays below.
std::vector<std::uint64_t> measured_ends_of(const std::vector<CacheLevel>& levels,
                                            const std::vector<std::pair<std::uint64_t, double>>& curve) {
    std::vector<std::uint64_t> out(levels.size(), 0);
    if (curve.size() < 4 || levels.empty()) return out;
    for (const auto& [bytes, gbs] : curve)
        if (!(gbs > 0) || bytes == 0) return out;
    std::vector<double> anchor(levels.size(), 0);
    for (std::size_t i = 0; i < levels.size(); ++i)
        if (!levels[i].doubtful && levels[i].size_bytes > 0) anchor[i] = static_cast<double>(levels[i].size_bytes);
    // Doubted levels: the curve's own ends that no believed level explains, in order, the last to the last.
    std::vector<double> unexplained;
    for (const std::uint64_t end : measured_level_ends(curve)) {
        const bool explained = std::any_of(anchor.begin(), anchor.end(), [&](double a) {
            return a > 0 && log_distance(static_cast<double>(end), a) <= std::log(2.0);
        });
        if (!explained) unexplained.push_back(static_cast<double>(end));
    }
    for (std::size_t i = levels.size(); i-- > 0 && !unexplained.empty();)
        if (anchor[i] == 0 && levels[i].doubtful) anchor[i] = unexplained.back(), unexplained.pop_back();

    const double first = static_cast<double>(curve.front().first);
    const double reach = static_cast<double>(curve.back().first);
    std::vector<double> dram;
    for (const auto& [bytes, gbs] : curve)
        if (static_cast<double>(bytes) >= reach / 2) dram.push_back(gbs);
    std::sort(dram.begin(), dram.end());
    const double dram_plateau = dram[dram.size() / 2];
    double above_end = 0;  // the level above's end (measured, else believed)
    for (std::size_t i = 0; i < levels.size(); ++i) {
        const double size = anchor[i];
        if (size == 0) continue;
        const bool last = i + 1 == levels.size();
        if (last && reach < 2 * size) break;  // the curve never left the last level
        const double lo = above_end > 0 ? 2 * above_end : first;
        const double plateau = best_in(curve, lo, std::max(lo, size / 2));
        double next = 0;
        if (last) {
            next = dram_plateau;
        } else if (anchor[i + 1] > 0) {
            next = best_in(curve, 2 * size, std::max(2 * size, anchor[i + 1] / 2));
        }
        above_end = size;
        if (!(plateau > 0) || !(next > 0) || plateau < kResolvableStep * next) continue;
        const double level = std::sqrt(plateau * next);
        for (std::size_t j = 0; j + 1 < curve.size(); ++j) {
            if (static_cast<double>(curve[j].first) < std::max(lo, size / 4)) continue;
            const bool falls = curve[j].second >= level && curve[j + 1].second < level;
            const bool stays = j + 2 >= curve.size() || curve[j + 2].second < level;
            if (!falls || !stays) continue;
            out[i] = static_cast<std::uint64_t>(crossing_size(curve, j, j + 1, level));
            above_end = static_cast<double>(out[i]);
            break;
        }
    }
    return out;
}

} // namespace

CacheSizeRange plausible_cache_size(int level, const std::optional<Microarch>& arch) {
    CacheSizeRange range;
    if (arch && arch->caches) {
        const CacheSizes& t = *arch->caches;
        range.source = arch->name + " (microarchitecture table)";
        if (level == 1) range.min_bytes = range.max_bytes = t.l1d;
        else if (level == 2) range.min_bytes = t.l2_min, range.max_bytes = t.l2_max;
        else if (level == 3) range.min_bytes = t.l3_min, range.max_bytes = t.l3_max, range.known_bytes = t.l3_known;
        if (level == 1 && t.l1d) range.known_bytes = {t.l1d};
        if (range.max_bytes > 0) return range;
        range = {};
    }
    // Any CPU made so far (2026): L1d 16-192 KiB (Apple's 128 KiB; a few older
    // 8 KiB), L2 up to 32 MiB per instance (IBM Telum's private 32 MiB), L3 up to
    // 1 GiB per instance (Granite Rapids: 504 MiB per socket) but at most 64 MiB
    // per core (EPYC 9184X: 48 MiB per core), L4 (eDRAM) 64 MiB to 2 GiB.
    range.source = "any CPU made so far";
    switch (level) {
    case 1: range.min_bytes = 4 * KiB, range.max_bytes = 256 * KiB; break;
    case 2: range.min_bytes = 64 * KiB, range.max_bytes = 32 * MiB, range.max_bytes_per_core = 32 * MiB; break;
    case 3: range.min_bytes = 512 * KiB, range.max_bytes = 1 * GiB, range.max_bytes_per_core = 64 * MiB; break;
    default: range.min_bytes = 16 * MiB, range.max_bytes = 2 * GiB, range.max_bytes_per_core = 256 * MiB; break;
    }
    return range;
}

std::vector<std::uint64_t> measured_level_ends(const std::vector<std::pair<std::uint64_t, double>>& curve) {
    std::vector<std::uint64_t> ends;
    constexpr double kDrop = 0.8;      // a fall below 80% of the plateau
    constexpr double kSettled = 0.93;  // the next plateau starts where a step loses less than 7%
    std::size_t n = curve.size();
    if (n < 4) return ends;
    for (const auto& [bytes, gbs] : curve)
        if (!(gbs > 0) || bytes == 0) return ends;  // a curve with holes tells nothing
    std::size_t start = 0;  // first point of the current plateau
    while (start + 2 < n) {
        double plateau = curve[start].second;
        std::size_t j = start + 1;
        std::size_t drop = n;
        for (; j + 1 < n; ++j) {
            plateau = std::max(plateau, curve[j].second);
            if (curve[j + 1].second < kDrop * plateau && (j + 2 >= n || curve[j + 2].second < kDrop * plateau)) {
                drop = j;  // the last point still on the plateau (or nearly)
                break;
            }
        }
        if (drop >= n) break;
        // Walk down the transition to where the curve flattens again.
        std::size_t k = drop + 1;
        while (k + 1 < n && curve[k + 1].second < kSettled * curve[k].second) ++k;
        // The next plateau: the best of the points from k while they hold within the drop band.
        double next = curve[k].second;
        for (std::size_t m = k + 1; m < n && curve[m].second >= kDrop * curve[k].second; ++m)
            next = std::max(next, curve[m].second);
        next = std::min(next, curve[k].second / kSettled);
        const double level = std::sqrt(plateau * next);
        ends.push_back(static_cast<std::uint64_t>(crossing_size(curve, drop, k, level)));
        start = k;
    }
    return ends;
}

std::vector<CacheLevel> check_cache_hierarchy(const std::vector<CacheLevel>& reported,
                                              const std::optional<Microarch>& arch,
                                              const std::vector<std::pair<std::uint64_t, double>>& curve) {
    std::vector<CacheLevel> levels = reported;
    std::sort(levels.begin(), levels.end(), [](const CacheLevel& a, const CacheLevel& b) { return a.level < b.level; });
    // 1. What is plausible.
    for (auto& c : levels) {
        c.reported_size_bytes = c.size_bytes;
        c.measured_size_bytes = 0;
        c.size_source = "reported";
        c.finding.clear();
        c.doubtful = false;
        const CacheSizeRange range = plausible_cache_size(c.level, arch);
        if (within(range, c)) continue;
        const std::string said =
            c.size_bytes == 0
                ? fmt::format("L{} is reported with no size", c.level)
                : fmt::format("L{} is reported as {}{}", c.level, format_bytes(c.size_bytes),
                              c.shared_by_cores > 1 ? fmt::format(" shared by {} cores", c.shared_by_cores) : " per core");
        const std::uint64_t from_table = table_size(range);
        if (from_table) {
            c.finding = fmt::format("{}, but {} has {}: {} used", said, range.source, range_text(range),
                                    format_bytes(from_table));
            c.size_bytes = from_table;
            c.size_source = "table";
        } else {
            c.finding = fmt::format("{}, outside what {} has ({})", said, range.source, range_text(range));
            c.doubtful = true;
        }
    }
    // 2. Each level must hold more than the one above it.
    for (std::size_t i = 1; i < levels.size(); ++i) {
        auto& inner = levels[i - 1];
        auto& outer = levels[i];
        if (outer.size_bytes == 0 || inner.size_bytes == 0 || outer.size_bytes > inner.size_bytes) continue;
        if (!outer.finding.empty() || !inner.finding.empty()) continue;  // already judged
        outer.finding = fmt::format("L{} is reported as {}, no larger than L{}'s {}: one of them is wrong",
                                    outer.level, format_bytes(outer.size_bytes), inner.level,
                                    format_bytes(inner.size_bytes));
        outer.doubtful = inner.doubtful = true;
    }
    // 3. What the load curve says.
    const std::vector<std::uint64_t> measured = measured_ends_of(levels, curve);
    for (std::size_t i = 0; i < levels.size(); ++i) {
        CacheLevel& c = levels[i];
        if (!measured[i]) continue;
        c.measured_size_bytes = measured[i];
        const CacheSizeRange range = plausible_cache_size(c.level, arch);
        const bool agrees = c.size_bytes > 0 && !c.doubtful &&
                            log_distance(static_cast<double>(measured[i]), static_cast<double>(c.size_bytes)) <=
                                std::log(kAgreeFactor);
        if (agrees) continue;
        const std::uint64_t used = snapped(measured[i], range);
        const std::string said = fmt::format("the load curve ends L{} at about {}", c.level, format_bytes(measured[i]));
        c.finding = c.finding.empty() ? fmt::format("L{} is reported as {}, but {}: {} used", c.level,
                                                    format_bytes(c.reported_size_bytes), said, format_bytes(used))
                                      : fmt::format("{}; {}: {} used", c.finding, said, format_bytes(used));
        c.size_bytes = used;
        c.size_source = "measured";
        c.doubtful = false;
    }
    // 4. A level still without a size is dropped; the ones below take its place.
    std::vector<CacheLevel> out;
    for (auto& c : levels) {
        if (c.size_bytes == 0) continue;
        c.level = static_cast<int>(out.size()) + 1;
        out.push_back(c);
    }
    return out;
}

bool cache_sizes_doubtful(const std::vector<CacheLevel>& checked) {
    return std::any_of(checked.begin(), checked.end(), [](const CacheLevel& c) { return c.doubtful; });
}

std::uint64_t cache_probe_reach(const std::vector<CacheLevel>& checked) {
    std::uint64_t last = 0;
    int last_level = 0;
    bool doubtful = false;
    for (const auto& c : checked)
        if (c.level >= last_level) last = c.size_bytes, last_level = c.level, doubtful = c.doubtful;
    // A doubted size no farther than the largest share of one core anyone ships.
    if (doubtful) last = std::min<std::uint64_t>(last, 64 * MiB);
    // Four times the last level: past its end, an octave of DRAM plateau. Every
    // page of it is faulted in, which some guests make slow: no more than that.
    return std::clamp<std::uint64_t>(4 * last, 64 * MiB, 1 * GiB);
}

} // namespace roofline
