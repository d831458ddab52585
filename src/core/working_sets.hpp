// Which working-set sizes to measure for each memory level, derived from the
// cache description and how many threads share each cache (pure).
#pragma once

#include "core/machine_model.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace roofline {

struct LevelSizes {
    std::string level;                        // "L1", "L2", "L3", "DRAM"
    std::vector<std::uint64_t> per_thread_bytes;  // ascending, all inside the level
};

// Capacity of cache `c` available to one of `threads` threads, one thread per
// core, cores filled in order (threads sharing an instance split it).
std::uint64_t per_thread_capacity(const CacheLevel& c, int threads);

// `points` sizes per level, geometrically spaced between what safely spills the
// level below (2x its per-thread capacity) and what safely fits this level
// (`fill` x its per-thread capacity; the rest is left for code, stack, tables).
// DRAM: from 4x the last level's per-thread capacity up to dram_total_bytes / threads.
// Sizes are rounded down to multiples of `align_bytes`.
std::vector<LevelSizes> choose_working_sets(const std::vector<CacheLevel>& caches, int threads, int points,
                                            std::uint64_t dram_total_bytes, double fill = 0.6,
                                            std::uint64_t align_bytes = 4096);

} // namespace roofline
