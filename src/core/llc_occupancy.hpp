// A point whose data fills most of the simulated last-level cache, and re-reads it there:
// LRU over a private, true-LRU model of the LLC keeps it all and counts only each line's
// first read from DRAM, where a real L3 (shared with other cores, not LRU, AMD's a victim
// cache, addresses hashed over slices) spills part of it every pass. Its DRAM bytes are
// then a lower bound: said (a note), never changed. Pure.
#pragma once

#include <optional>
#include <string>

namespace roofline {

struct Point;  // core/roofline.hpp, which holds this note in its Analysis

// Point::details keys the instrument engine's cache simulation records.
// The distinct lines the point touched x the line size (the Valgrind tool's sketch, about 2%).
inline constexpr const char* kCacheTouchedBytes = "cache_touched_bytes";
// The simulated last level: its capacity (one instance) and its number (3 for an L3).
inline constexpr const char* kCacheLlcBytes = "cache_llc_bytes";
inline constexpr const char* kCacheLlcLevel = "cache_llc_level";

// The share of the LLC from which the note is given: 50%. An L3 shared by 8 cores holds what
// the others leave; replacement that is not LRU (adaptive, pseudo-LRU) evicts lines LRU would
// keep; a victim L3 (AMD) holds only what L2 evicts, less the lines L2 holds; hashed slices and
// sets make conflicts a model by address bits does not. Below half the capacity these leave the
// data in place on most machines; above it they spill a part that grows toward all of it.
inline constexpr double kLlcNearFullShare = 0.5;
// Up to 1.5x the capacity: above it LRU itself spills a re-read working set (a cyclic sweep over
// more than the cache misses on every line), and a real cache may keep more of it than LRU does
// (adaptive replacement resists scans): the simulated DRAM bytes are then no lower bound.
inline constexpr double kLlcWellOverShare = 1.5;
// Re-read: at least twice the bytes read from the LLC as from DRAM. Below, each line is mostly
// read once at that level (a stream), and a smaller real cache changes little.
inline constexpr double kLlcRereadRatio = 2;

struct LlcNearFull {
    double touched_bytes = 0;  // the data the point touched
    bool touched_counted = true;  // true: its distinct lines (sketch); false: a lower bound, its DRAM reads
    double llc_bytes = 0;      // the simulated last level's capacity
    int llc_level = 0;         // 3: "L3"
    double share = 0;          // touched_bytes / llc_bytes
    double llc_read_bytes = 0;   // read up from the LLC (its level's boundary)
    double dram_read_bytes = 0;  // read from DRAM
};

// nullopt unless the point has the cache simulation's figures, touched data of 50% to 150% of
// the LLC, and re-reads it from there (LLC reads >= 2x DRAM reads). Without the tool's count of
// distinct lines (a function's or loop's point, or an older tool), its DRAM reads stand for it:
// a lower bound, each line's first touch.
std::optional<LlcNearFull> llc_near_full(const Point& p);

// "the data it touched (about 30 MiB) fills 94% of the simulated 32 MiB L3; a real L3 (shared,
// not LRU) spills some of it: DRAM bytes here are a lower bound".
std::string llc_near_full_text(const LlcNearFull& n);

} // namespace roofline
