// A point whose written lines were still dirty in the simulated caches when the run ended: the
// cache simulation writes nothing back at the end, so those write-backs are counted nowhere and
// its DRAM bytes lack up to that many (a region writing a 64 MB output last, 3 passes: 349 MB
// counted where the reads and write-backs make 384 MB; METHODS, "dirty_at_end"). Said (a note),
// never changed: the hardware writes them back after the run, outside any timed region. Pure.
#pragma once

#include <optional>
#include <string>

namespace roofline {

struct Point;  // core/roofline.hpp

// Point::details key: the dirty bytes the simulated caches held when the point last ended (a
// marker region: when it last closed; the program: when the run ended), lines of any writer.
inline constexpr const char* kCacheDirtyAtEndBytes = "cache_dirty_at_end_bytes";

// From this share of its DRAM bytes (and kDirtyAtEndFloorBytes) the missing write-backs are said:
// under it they change its intensity at DRAM by less than the figures' other uncertainties.
inline constexpr double kDirtyAtEndShare = 0.05;
// And at least 1 MiB: the loader's and a small program's few dirty lines are no news.
inline constexpr double kDirtyAtEndFloorBytes = 1024.0 * 1024.0;

struct DirtyAtEnd {
    double unwritten_bytes = 0;  // at most this many of its write-backs were never counted
    double dram_bytes = 0;       // its DRAM bytes as counted
};

// nullopt unless the point has the cache simulation's dirty_at_end and it reaches both thresholds.
// `run_end_dirty_bytes`: what the caches held dirty when the run ended (the program's point's
// figure; nullopt when unknown). A region's own figure is what they held when it closed, of any
// writer; what later code evicted was written back and charged to it, so only the lines still dirty
// at the run's end went uncounted: the smaller of the two bounds them.
std::optional<DirtyAtEnd> dirty_at_end(const Point& p, std::optional<double> run_end_dirty_bytes);

// "up to 34.6 MB of its write-backs are counted nowhere: lines still dirty in the simulated caches
// when the run ended, which the cache simulation never writes back (the hardware does, after the
// run); its DRAM bytes, 349 MB, may lack them (with them up to 384 MB)"
std::string dirty_at_end_text(const DirtyAtEnd& d);

} // namespace roofline
