#include "core/roof_consistency.hpp"

#include "core/level.hpp"
#include "core/statistics.hpp"

#include <fmt/core.h>

#include <algorithm>
#include <cstdlib>

namespace roofline {
namespace {

// More threads never move less data than fewer through the same level, by far.
constexpr double kTeamShortfall = 0.5;
// One thread never gets less than a quarter of its share of the team's rate.
constexpr double kSingleShortfall = 0.25;
// DRAM patterns of one thread count lie within 5x of each other (store-only
// with write-allocate is the slowest: about a third of load's nominal rate).
constexpr double kPatternShortfall = 0.2;

} // namespace

std::vector<SuspectRoof> inconsistent_memory_roofs(const std::vector<MemoryRoof>& roofs) {
    std::vector<SuspectRoof> out;
    for (std::size_t i = 0; i < roofs.size(); ++i) {
        const MemoryRoof& r = roofs[i];
        if (!(r.gbs > 0)) continue;
        std::string reason;
        for (const MemoryRoof& o : roofs) {
            if (&o == &r || !(o.gbs > 0) || o.level != r.level) continue;
            if (o.pattern == r.pattern && o.threads < r.threads && r.gbs < kTeamShortfall * o.gbs) {
                reason = fmt::format("{:.1f} GB/s with {} threads, under half the {:.1f} GB/s of {} thread{}", r.gbs,
                                     r.threads, o.gbs, o.threads, o.threads > 1 ? "s" : "");
                break;
            }
            if (o.pattern == r.pattern && o.threads > r.threads &&
                r.gbs * o.threads / r.threads < kSingleShortfall * o.gbs) {
                reason = fmt::format("{:.1f} GB/s with {} thread{}, under a quarter of its share of the {:.1f} GB/s "
                                     "{} threads reached",
                                     r.gbs, r.threads, r.threads > 1 ? "s" : "", o.gbs, o.threads);
                break;
            }
            if (r.level == "DRAM" && o.pattern != r.pattern && o.threads == r.threads &&
                r.gbs < kPatternShortfall * o.gbs) {
                reason = fmt::format("{:.1f} GB/s, under a fifth of DRAM {}'s {:.1f} GB/s at the same {} thread{}",
                                     r.gbs, o.pattern, o.gbs, r.threads, r.threads > 1 ? "s" : "");
                break;
            }
        }
        if (!reason.empty()) out.push_back({i, reason});
    }
    return out;
}

std::vector<std::string> refuse_roofs_above_theory(MachineModel& model) {
    std::vector<std::string> refused;
    const auto above = [](double measured, double limit) { return limit > 0 && measured > (1 + kRefuseAboveTheory) * limit; };
    std::erase_if(model.compute, [&](const ComputeRoof& r) {
        if (!above(r.gflops, r.theoretical_gflops)) return false;
        refused.push_back(fmt::format("{}: {:.1f} GFLOP/s is {:.2f}x what the core allows ({:.1f}): the kernel's work "
                                      "was not all done, or the table or the clock is wrong for this CPU; refused",
                                      r.name, r.gflops, r.gflops / r.theoretical_gflops, r.theoretical_gflops));
        return true;
    });
    std::erase_if(model.memory, [&](const MemoryRoof& r) {
        if (!above(r.gbs, r.theoretical_gbs)) return false;
        refused.push_back(fmt::format("{} {} {} thread{}: {:.1f} GB/s is {:.2f}x what the core's ports allow ({:.1f}); "
                                      "refused",
                                      r.level, r.pattern, r.threads, r.threads > 1 ? "s" : "", r.gbs,
                                      r.gbs / r.theoretical_gbs, r.theoretical_gbs));
        return true;
    });
    return refused;
}

std::vector<std::string> refuse_outer_levels_faster_than_inner(MachineModel& model) {
    std::vector<std::string> refused;
    std::vector<bool> refuse(model.memory.size(), false);
    for (std::size_t i = 0; i < model.memory.size(); ++i) {
        const MemoryRoof& r = model.memory[i];
        if (!is_memory_level(r.level) || !(r.gbs > 0)) continue;
        const MemoryRoof* fastest_inner = nullptr;
        const MemoryRoof* nearest_inner = nullptr;
        std::vector<const MemoryRoof*> inner;
        for (const MemoryRoof& o : model.memory)
            if (is_memory_level(o.level) && o.pattern == r.pattern && o.threads == r.threads && o.gbs > 0 &&
                level_before(o.level, r.level) && canonical_level(o.level) != canonical_level(r.level)) {
                inner.push_back(&o);
                if (!fastest_inner || o.gbs > fastest_inner->gbs) fastest_inner = &o;
                if (!nearest_inner || level_before(nearest_inner->level, o.level)) nearest_inner = &o;
            }
        if (!fastest_inner) continue;
        const auto name = [](const MemoryRoof& x) {
            return fmt::format("{} {} {} thread{}", x.level, x.pattern, x.threads, x.threads > 1 ? "s" : "");
        };
        if (r.gbs > kOuterLevelAllowance * fastest_inner->gbs) {
            refuse[i] = true;
            refused.push_back(fmt::format("{}: {:.1f} GB/s is {:.2f}x the {:.1f} GB/s of {} {} at the same "
                                          "threads, a level its data passes through: it cannot be true; refused",
                                          name(r), r.gbs, r.gbs / fastest_inner->gbs, fastest_inner->gbs,
                                          fastest_inner->level, fastest_inner->pattern));
            continue;
        }
        // Well above the level just before it and at or above another inner level: two witnesses
        // against it, so not one inner roof measured low (a DRAM roof edited 10x read 2.3x L3's
        // and 1.1x L2's, under 1.5x L1's, and was kept).
        if (!(r.gbs > kOuterLevelAllowance * nearest_inner->gbs)) continue;
        const auto second = std::find_if(inner.begin(), inner.end(), [&](const MemoryRoof* o) {
            return o != nearest_inner && canonical_level(o->level) != canonical_level(nearest_inner->level) &&
                   r.gbs >= o->gbs;
        });
        if (second == inner.end()) continue;
        refuse[i] = true;
        refused.push_back(fmt::format("{}: {:.1f} GB/s is {:.2f}x the {:.1f} GB/s of {} {}, the level before it, and "
                                      "above the {:.1f} GB/s of {} {} too, at the same threads: levels its data passes "
                                      "through; it cannot be true; refused",
                                      name(r), r.gbs, r.gbs / nearest_inner->gbs, nearest_inner->gbs,
                                      nearest_inner->level, nearest_inner->pattern, (*second)->gbs, (*second)->level,
                                      (*second)->pattern));
    }
    std::size_t i = 0;
    std::erase_if(model.memory, [&](const MemoryRoof&) { return refuse[i++]; });
    return refused;
}

} // namespace roofline

namespace roofline {

std::vector<std::string> roofs_against_cache_probe(const MachineModel& model) {
    std::vector<std::string> out;
    const auto& probe = model.cache_probe;
    if (probe.points.empty() || probe.threads != 1) return out;
    for (const MemoryRoof& r : model.memory) {
        if (r.threads != 1 || r.pattern != "load" || !(r.gbs > 0) || r.level.size() < 2 || r.level[0] != 'L') continue;
        const int level = std::atoi(r.level.c_str() + 1);
        const CacheLevel* cache = nullptr;
        const CacheLevel* inner = nullptr;
        for (const auto& c : model.caches) {
            if (c.level == level) cache = &c;
            if (c.level == level - 1) inner = &c;
        }
        if (!cache || cache->size_bytes == 0 || (level > 1 && !inner)) continue;
        const double lo = inner ? 2.0 * static_cast<double>(inner->size_bytes) : 0.0;
        const double hi = static_cast<double>(cache->size_bytes) / 2;
        std::vector<double> plateau;
        for (const auto& [bytes, gbs] : probe.points)
            if (static_cast<double>(bytes) >= lo && static_cast<double>(bytes) <= hi && gbs > 0) plateau.push_back(gbs);
        if (plateau.size() < 3) continue;  // too few to say what the level gives
        const std::size_t n = plateau.size();
        const double median = roofline::median(plateau);
        const auto range = fmt::format("{} to {} KiB", static_cast<std::uint64_t>(lo) >> 10,
                                       static_cast<std::uint64_t>(hi) >> 10);
        if (r.gbs < kProbeLowShare * median)
            out.push_back(fmt::format(
                "{} load 1 thread: the roof, {:.1f} GB/s, is {:.0f}% of the {:.1f} GB/s the cache probe read over {} "
                "(its median, {} points) in this run: the roof was measured low, its bursts disturbed; rerun when "
                "the machine is quieter",
                r.level, r.gbs, 100 * r.gbs / median, median, range, n));
        else if (r.gbs > kProbeHighShare * median)
            out.push_back(fmt::format(
                "{} load 1 thread: the roof, {:.1f} GB/s, is {:.1f}x the {:.1f} GB/s the cache probe read over {} "
                "(its median, {} points) in this run: its working set ({} KiB) most likely sat in a faster level, "
                "so it is not {}'s figure",
                r.level, r.gbs, r.gbs / median, median, range, n, r.working_set_bytes >> 10, r.level));
    }
    // DRAM: the probe's points past twice the last cache (its reach is four times it: an octave of
    // DRAM plateau, where a victim cache still returns some lines, so the curve reads a little above
    // DRAM). Judged only where it reached that far.
    std::uint64_t last_cache = 0;
    for (const auto& c : model.caches) last_cache = std::max(last_cache, c.size_bytes);
    if (last_cache == 0) return out;
    std::vector<double> beyond;
    for (const auto& [bytes, gbs] : probe.points)
        if (bytes >= 2 * last_cache && gbs > 0) beyond.push_back(gbs);
    if (beyond.size() < kProbeDramPoints) return out;
    const std::size_t n = beyond.size();
    const double median = roofline::median(beyond);
    for (const MemoryRoof& r : model.memory) {
        if (r.threads != 1 || r.pattern != "load" || r.level != "DRAM" || !(r.gbs > 0)) continue;
        const auto range = fmt::format("{} MiB and beyond (twice the last cache, {} MiB)", (2 * last_cache) >> 20,
                                       last_cache >> 20);
        if (r.gbs < kProbeDramLowShare * median)
            out.push_back(fmt::format(
                "DRAM load 1 thread: the roof, {:.1f} GB/s, is {:.0f}% of the {:.1f} GB/s the cache probe read over "
                "{} (its median, {} points) in this run: the roof was measured low, its bursts disturbed; rerun "
                "when the machine is quieter",
                r.gbs, 100 * r.gbs / median, median, range, n));
        else if (r.gbs > kProbeHighShare * median)
            out.push_back(fmt::format(
                "DRAM load 1 thread: the roof, {:.1f} GB/s, is {:.1f}x the {:.1f} GB/s the cache probe read over {} "
                "(its median, {} points) in this run: its working set ({} MiB) most likely sat in a cache, so it is "
                "not DRAM's figure",
                r.gbs, r.gbs / median, median, range, n, r.working_set_bytes >> 20));
    }
    return out;
}

} // namespace roofline
