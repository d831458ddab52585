// A point whose written lines were still dirty in the simulated caches when the run ended: the
// cache simulation writes nothing back at the end, so those write-backs are counted nowhere and
// its DRAM bytes lack them (a region writing a 64 MB output last, 3 passes: 349 MB counted where
// the reads and write-backs make 384 MB; METHODS, "dirty_at_end"). Said (a note), never changed:
// the hardware writes them back after the run, outside any timed region. Pure.
#pragma once

#include <optional>
#include <string>

namespace roofline {

struct Point;  // core/roofline.hpp

// Point::details key: the dirty bytes the simulated caches held when the point last ended (a
// marker region: when it last closed; the program: when the run ended), lines of any writer.
inline constexpr const char* kCacheDirtyAtEndBytes = "cache_dirty_at_end_bytes";
// Point::details key: the point's own missing write-backs, from the tool (`dirty_at_exit`): the
// DRAM write-backs of the lines its stores made dirty that were still dirty when the run ended, as
// writing the simulated caches back at the end makes them, each charged to the regions open at the
// store that made it due (as a region's counted write-backs are); the program's: every writer's.
// A region that closed early and whose lines later code evicted (counted, charged to it) has 0.
inline constexpr const char* kCacheDirtyAtExitBytes = "cache_dirty_at_exit_bytes";
// Point::details key: a region that was open in a set of regions past the tool's writer contexts
// (writer_contexts_exhausted) may have had lines with no writer, charged to none: kCacheDirtyAtExitBytes
// with all of those added, a bound (`dirty_at_exit_up_to`); with it that figure is not exact.
inline constexpr const char* kCacheDirtyAtExitUpToBytes = "cache_dirty_at_exit_up_to_bytes";

// From this share of its DRAM bytes (and kDirtyAtEndFloorBytes) the missing write-backs are said:
// under it they change its intensity at DRAM by less than the figures' other uncertainties.
inline constexpr double kDirtyAtEndShare = 0.05;
// And at least 1 MiB: the loader's and a small program's few dirty lines are no news.
inline constexpr double kDirtyAtEndFloorBytes = 1024.0 * 1024.0;

struct DirtyAtEnd {
    double unwritten_bytes = 0;  // its write-backs never counted (exact), or at most this many
    bool exact = false;          // from kCacheDirtyAtExitBytes: its own lines, counted
    double dram_bytes = 0;       // its DRAM bytes as counted
};

// nullopt unless the point has the cache simulation's dirty-line figures and they reach both
// thresholds. With kCacheDirtyAtExitBytes (the tool attributes each line still dirty at the end
// to its writer) that figure, exact; with kCacheDirtyAtExitUpToBytes too, at most that (and the
// bound below where it is smaller). Without it (an older tool) a bound: `run_end_dirty_bytes`,
// what the caches held dirty when the run ended (the program's point's figure; nullopt when
// unknown), and the region's own figure, what they held when it closed, of any writer; what later
// code evicted was written back and charged to it, so only the lines still dirty at the run's end
// went uncounted: the smaller of the two bounds them.
std::optional<DirtyAtEnd> dirty_at_end(const Point& p, std::optional<double> run_end_dirty_bytes);

// "1.57 MB of its write-backs are counted nowhere: lines its stores made dirty were still dirty in
// the simulated caches when the run ended, which the cache simulation never writes back (the
// hardware does, after the run); its DRAM bytes, 1.57 MB, lack them (with them 3.15 MB)"; from
// the bound (an older tool): "up to 34.6 MB of its write-backs are counted nowhere: lines still
// dirty in the simulated caches when the run ended, ...; its DRAM bytes, 349 MB, may lack them
// (with them up to 384 MB)".
std::string dirty_at_end_text(const DirtyAtEnd& d);

} // namespace roofline
