#include "core/llc_occupancy.hpp"

#include "core/byte_sizes.hpp"
#include "core/roofline.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace roofline {

namespace {

double detail(const Point& p, const std::string& key) {
    const auto it = p.details.find(key);
    return it != p.details.end() && std::isfinite(it->second) && it->second > 0 ? it->second : 0.0;
}

// The union over a region's openings is said beside its working set above this ratio: both come
// from sketches of about 2% (the working set, a largest of several estimates, a little over).
constexpr double kWorkingSetSaidAbove = 1.1;

// "9.5x", "1140x": two figures, whole under 10 and past it.
std::string ratio_text(double r) { return r < 10 ? fmt::format("{:.2g}x", r) : fmt::format("{:.0f}x", r); }

} // namespace

const char* touched_from_name(TouchedFrom from) {
    switch (from) {
    case TouchedFrom::point: return "point";
    case TouchedFrom::dram_reads: return "dram_reads";
    case TouchedFrom::program: return "program";
    case TouchedFrom::region: return "region";
    }
    return "point";
}

namespace {

// The note at the capacity of `threads` threads (see llc_near_full).
std::optional<LlcNearFull> near_full_for(const Point& p, int threads) {
    LlcNearFull n;
    n.llc_bytes = detail(p, kCacheLlcBytes);
    n.llc_level = static_cast<int>(detail(p, kCacheLlcLevel));
    // An LLC of level 1 has no level above it to re-read from.
    if (!(n.llc_bytes > 0) || n.llc_level < 2) return std::nullopt;
    // The instances its threads need, filling one instance's cores before the next: 16 threads
    // under L3s of 8 cores each have two of them (32 MiB x 2), one thread one.
    n.instances = static_cast<int>(detail(p, kCacheLlcInstances));
    n.cores_per_instance = static_cast<int>(detail(p, kCacheLlcCoresPerInstance));
    n.threads = std::max(1, threads);
    n.instances_used = 1;
    if (n.instances > 1 && n.cores_per_instance > 0)
        n.instances_used = std::min(n.instances, (n.threads + n.cores_per_instance - 1) / n.cores_per_instance);
    n.capacity_bytes = n.instances_used * n.llc_bytes;
    n.dram_read_bytes = detail(p, "cache_DRAM_read_bytes");
    n.llc_read_bytes = detail(p, fmt::format("cache_L{}_read_bytes", n.llc_level));
    const auto in_range = [&](double bytes) {
        const double share = bytes / n.capacity_bytes;
        return share >= kLlcNearFullShare && share <= kLlcWellOverShare;
    };
    n.touched_bytes = detail(p, kCacheTouchedBytes);
    // Opened several times: the data its re-reads span, not all its openings' (slabs of an array,
    // one an opening, each re-read within it, are each a slab's); the union said when larger than
    // the sketches' error.
    if (const double working = detail(p, kCacheWorkingSetBytes); working > 0) {
        if (n.touched_bytes > kWorkingSetSaidAbove * working) n.touched_all_openings_bytes = n.touched_bytes;
        n.touched_bytes = working;
    }
    if (!(n.touched_bytes > 0)) {
        n.touched_counted = false;
        n.touched_from = TouchedFrom::dram_reads;
        n.touched_bytes = n.dram_read_bytes;
        // Its own reads too few to say (a loop of data warmed before it): the code around it.
        const double enclosing = detail(p, kCacheEnclosingTouchedBytes);
        if (!in_range(n.touched_bytes) && enclosing > 0 && in_range(enclosing) &&
            n.llc_read_bytes >= kLlcNearFullShare * n.capacity_bytes) {
            n.touched_bytes = enclosing;
            n.touched_from = detail(p, kCacheEnclosingRegion) > 0 ? TouchedFrom::region : TouchedFrom::program;
        }
    }
    n.share = n.touched_bytes / n.capacity_bytes;
    if (!in_range(n.touched_bytes)) return std::nullopt;
    if (!(n.llc_read_bytes > 0) || n.llc_read_bytes < kLlcRereadRatio * n.dram_read_bytes) return std::nullopt;
    return n;
}

} // namespace

std::optional<LlcNearFull> llc_near_full(const Point& p) {
    const int own = std::max(1, p.threads);
    const int enclosing = static_cast<int>(detail(p, kCacheEnclosingThreads));
    auto n = near_full_for(p, own);
    if (enclosing > own) {
        // Its threads are not counted: at the capacity of the threads the code around it ran
        // first (a parallel sweep's), else of its own one (a serial function's).
        if (auto wide = near_full_for(p, enclosing); wide && wide->instances_used > (n ? n->instances_used : 1)) {
            wide->threads_of_enclosing = true;
            wide->one_thread_share = wide->touched_bytes / wide->llc_bytes;
            n = wide;
        }
        if (n) {
            n->enclosing_threads = enclosing;
            n->enclosing_is_region = detail(p, kCacheEnclosingRegion) > 0;
        }
    }
    return n;
}

std::string llc_near_full_text(const LlcNearFull& n) {
    const std::string level = fmt::format("L{}", n.llc_level);
    // Past the capacity (up to 1.5x) LRU still keeps most of it: "is 125% of the simulated 32 MiB
    // L3" (a ratio of two figures read "1x" for 101-104%).
    const std::string share = n.share <= 1 ? fmt::format("fills {:.0f}% of", 100 * n.share)
                                           : fmt::format("is {:.0f}% of", 100 * n.share);
    const auto bytes = [](double b) { return format_bytes(static_cast<std::uint64_t>(b)); };
    // The capacity, with the assumption behind it where the machine has several instances.
    std::string capacity = fmt::format("the simulated {} {}", bytes(n.llc_bytes), level);
    const std::string enclosing = n.enclosing_is_region ? "its marker region" : "the program";
    if (n.threads_of_enclosing)
        capacity = fmt::format("the {} simulated {} {}s the {} threads {} ran need ({} cores share one; which of them "
                               "ran this code is not counted: on one thread it is {:.0f}% of one)",
                               n.instances_used, bytes(n.llc_bytes), level, n.threads, enclosing,
                               n.cores_per_instance, 100 * n.one_thread_share);
    else if (n.enclosing_threads > 1 && n.instances > 1 && n.cores_per_instance > 0 &&
             n.enclosing_threads <= n.cores_per_instance)
        capacity = fmt::format("the simulated {} {} (one of {}: the {} threads {} ran fit the {} cores sharing one)",
                               bytes(n.llc_bytes), level, n.instances, n.enclosing_threads, enclosing,
                               n.cores_per_instance);
    else if (n.enclosing_threads > 1 && n.instances > 1)
        capacity = fmt::format("the simulated {} {} (one of {}: taken as one thread's; {} ran {} threads, and which "
                               "of them ran this code is not counted)",
                               bytes(n.llc_bytes), level, n.instances, enclosing, n.enclosing_threads);
    else if (n.instances > 1 && n.instances_used > 1)
        capacity = fmt::format("the {} simulated {} {}s its {} threads need ({} cores share one; its threads taken "
                               "to fill one's cores before the next, so spread wider they have more)",
                               n.instances_used, bytes(n.llc_bytes), level, n.threads, n.cores_per_instance);
    else if (n.instances > 1 && n.threads == 1)
        capacity = fmt::format("the simulated {} {} (one of {}: its one thread runs under one)", bytes(n.llc_bytes),
                               level, n.instances);
    else if (n.instances > 1)
        capacity = fmt::format("the simulated {} {} (one of {}: its {} threads fit the {} cores sharing one; spread "
                               "wider they have more)",
                               bytes(n.llc_bytes), level, n.instances, n.threads, n.cores_per_instance);
    const std::string tail = fmt::format("a real {} (shared, not LRU) spills some of it: DRAM bytes here are a lower "
                                         "bound", level);
    if (n.touched_from == TouchedFrom::program || n.touched_from == TouchedFrom::region) {
        const std::string ratio = n.dram_read_bytes > 0
                                      ? ratio_text(n.llc_read_bytes / n.dram_read_bytes) + " its DRAM reads"
                                      : std::string("with no DRAM reads");
        return fmt::format("the {} touched about {}, which {} {}, and it re-reads from the {} ({} of {} reads, {}; "
                           "its own data is not counted, only the {}'s); {}",
                           n.touched_from == TouchedFrom::program ? "program" : "marker region", bytes(n.touched_bytes),
                           share, capacity, level, bytes(n.llc_read_bytes), level, ratio,
                           n.touched_from == TouchedFrom::program ? "whole program" : "region", tail);
    }
    if (n.touched_all_openings_bytes > 0)
        return fmt::format("the data it touched (about {} at once: an opening's, with the lines of earlier openings it "
                           "touched again; {} over all its openings) {} {}; {}",
                           bytes(n.touched_bytes), bytes(n.touched_all_openings_bytes), share, capacity, tail);
    return fmt::format("the data it touched ({} {}) {} {}; {}", n.touched_counted ? "about" : "at least",
                       bytes(n.touched_bytes), share, capacity, tail);
}

} // namespace roofline
