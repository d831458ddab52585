// A point whose stores were mostly REP STOS/MOVS string instructions (glibc's memset above its
// rep_stosb_threshold, 2 KiB by default; memcpy/memmove's erms variants above rep_movsb_threshold):
// the cache simulation is write-back, write-allocate, so each line such a store missed was read
// from the level below before being written. CPUs with fast strings may write whole destination
// lines without that read: Intel SDM vol. 3A, "Out-of-Order Stores For String Operations" (8.2.4
// in the 2009 edition): once fast-string operation starts, the processor issues "an invalidation
// on the external bus for the destination address, knowing that all bytes in the destination cache
// line will be modified" (no read for ownership). AMD's optimization guides for families 17h/19h
// describe ERMS/FSRM's speed but, as far as we found, not whether the read is skipped; a probe on
// a Zen 4 guest (large rep stosb at the non-temporal store rate, 1.0-1.4x ordinary stores at DRAM
// size) could not tell. So no figure is changed: the fills are said, as bytes the point's levels
// may count too many (the tool's rep_string_fill). Pure.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace roofline {

struct Point;  // core/roofline.hpp

// Point::details key: the bytes stored by REP STOS/MOVS instructions (the tool's rep_string_stored,
// with the cache simulation's figures).
inline constexpr const char* kCacheRepStringStoredBytes = "cache_rep_string_stored_bytes";
// Point::details key of `level` ("L2", "L3", "DRAM"): of the bytes read across the boundary above
// it, the write-allocate fills made for REP STOS/MOVS stores ("cache_L3_rep_string_fill_bytes").
std::string rep_string_fill_key(const std::string& level);

// From this share of a level's bytes the fills are said: under it they change its intensity
// there by less than the figures' other uncertainties.
inline constexpr double kRepStringFillShare = 0.05;
// And at least 1 MiB: a few small memsets' lines are no news.
inline constexpr double kRepStringFillFloorBytes = 1024.0 * 1024.0;

struct RepStringLevel {
    std::string level;       // "L2", "L3", "DRAM"
    double fill_bytes = 0;   // write-allocate reads made for string stores, at the boundary above it
    double level_bytes = 0;  // the point's bytes at that level as counted (reads and writes)
};

struct RepStringFill {
    double stored_bytes = 0;  // bytes the string instructions stored (0: not said, an older tool)
    std::vector<RepStringLevel> levels;  // the levels whose fills are notable, nearest the core first
};

// The fills at `level` when they reach both thresholds there, else nullopt.
std::optional<RepStringLevel> rep_string_fill_at(const Point& p, const std::string& level);

// nullopt unless some level's fills reach both thresholds.
std::optional<RepStringFill> rep_string_fill(const Point& p);

// "67.1 MB of its stores were REP STOS/MOVS string instructions (memset, and memcpy/memmove's erms
// variants): the cache simulation read each line they missed from the level below before writing
// it (write-allocate), but CPUs with fast strings (ERMS/FSRM) may write whole lines without that
// read (Intel SDM vol. 3A, fast-string operation), so its bytes may be too many by up to 67.1 MB at
// L2 (of 134 MB), 50.3 MB at L3 (of 117 MB)"
std::string rep_string_fill_text(const RepStringFill& f);

// The cause said first when a level reads above its roof: "up to 50.3 MB of its 117 MB at L3 are
// write-allocate reads for REP STOS/MOVS stores (memset, memcpy), which fast-string stores may skip".
std::string rep_string_above_roof_text(const RepStringLevel& l);

} // namespace roofline
