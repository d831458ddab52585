// Whether to believe the cache sizes a machine reports about itself. CPUID,
// hwloc and lscpu repeat what the firmware or a hypervisor says, and guests
// misdescribe their caches (one Zen 5 bhyve guest reports a 508 MiB L3 per
// core; the CCD has 32 MiB). Every reported level is set beside what the
// microarchitecture table and plain physics allow, and, when a load sweep was
// measured, beside where the bandwidth curve says the level really ends. The
// sizes every consumer uses (working sets, the cache simulation, DRAM sizing)
// are the checked ones; the reported ones are kept next to them. Pure.
#pragma once

#include "core/machine_model.hpp"
#include "core/microarch.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace roofline {

// The sizes one level's instance can have: from the table for a known core,
// else the limits of any CPU made so far.
struct CacheSizeRange {
    std::uint64_t min_bytes = 0, max_bytes = 0;
    // Largest share of one instance a core may have (a cache shared by n cores
    // offers each 1/n of it); 0: no per-core limit.
    std::uint64_t max_bytes_per_core = 0;
    std::vector<std::uint64_t> known_bytes;  // sizes products of this core ship with (empty: unknown core)
    std::string source;                      // "AMD Zen 5 (table)" or "any CPU made so far"
};
CacheSizeRange plausible_cache_size(int level, const std::optional<Microarch>& arch);

// Where a load bandwidth-vs-working-set curve (one thread, sizes ascending)
// drops from one plateau to the next: each returned size is where the curve
// crosses the geometric mean of the plateau before and the plateau after
// (log-log interpolation). A drop is a fall below 80% of the plateau held
// for two sizes in a row; noise that recovers is no drop.
std::vector<std::uint64_t> measured_level_ends(const std::vector<std::pair<std::uint64_t, double>>& curve);

// Checks the reported data caches (L1 first) against what is plausible and,
// when `curve` is given (a one-thread load sweep reaching `curve_reach` bytes),
// against where the curve says each level ends. Returns the levels everyone
// uses, each with its reported, measured and used size, the source of the used
// size and, when it was not believed, why (CacheLevel::finding). A level of
// size zero with nothing to replace it is dropped and the levels below are
// renumbered (the names follow the positions).
std::vector<CacheLevel> check_cache_hierarchy(const std::vector<CacheLevel>& reported,
                                              const std::optional<Microarch>& arch,
                                              const std::vector<std::pair<std::uint64_t, double>>& curve = {});

// True when some level's size is still doubted after the check (no table,
// no measurement to settle it): a consumer that can should measure.
bool cache_sizes_doubtful(const std::vector<CacheLevel>& checked);

// The largest size the probe needs to reach to see the last level end: four
// times the checked last level (a doubted one: at most 64 MiB), 64 MiB to 1 GiB.
std::uint64_t cache_probe_reach(const std::vector<CacheLevel>& checked);

} // namespace roofline
