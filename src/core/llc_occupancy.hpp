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
// A marker region's (and the program's) data as its re-reads span it: the most any one opening
// touched, with the lines of the earlier openings it touched again (rl_distinct.h). A region opened
// on slab after slab of a large array has each slab's, where kCacheTouchedBytes is all the slabs';
// one opened on the same grid every time step has the grid's. What the note judges when present
// (an older tool: kCacheTouchedBytes).
inline constexpr const char* kCacheWorkingSetBytes = "cache_working_set_bytes";
// The simulated last level: its capacity (one instance) and its number (3 for an L3).
inline constexpr const char* kCacheLlcBytes = "cache_llc_bytes";
inline constexpr const char* kCacheLlcLevel = "cache_llc_level";
// Its instances in the simulated machine and the cores sharing one (the tool's cache_model:
// ceil(cores / shared_by) and shared_by): a point whose threads need several instances' cores
// has the capacity of those instances.
inline constexpr const char* kCacheLlcInstances = "cache_llc_instances";
inline constexpr const char* kCacheLlcCoresPerInstance = "cache_llc_cores_per_instance";
// For a function's or loop's point, which the tool gives no count of distinct lines: what the
// code around it touched, the whole program's (or, for a loop of a marker region, the region's)
// distinct lines x the line size; kCacheEnclosingRegion is 1 when it is a marker region's.
inline constexpr const char* kCacheEnclosingTouchedBytes = "cache_enclosing_touched_bytes";
inline constexpr const char* kCacheEnclosingRegion = "cache_enclosing_region";
// For a function's or loop's point, whose `threads` is 1 (its CPU time summed over the threads
// that ran it): the threads the program (a loop of a marker region: the region) ran. Its data may
// be spread over the LLC instances those threads ran under: a sweep split over 8 threads on two
// L3s of 4 cores holds its data in both.
inline constexpr const char* kCacheEnclosingThreads = "cache_enclosing_threads";

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

// What `LlcNearFull::touched_bytes` is.
enum class TouchedFrom {
    point,       // the point's own distinct lines (the tool's sketch: a marker region, the program)
    dram_reads,  // its DRAM reads, each line's first touch: a lower bound of its data
    program,     // the whole program's distinct lines: the point (a function, a loop) is part of it
    region,      // its marker region's distinct lines (a loop of that region)
};
const char* touched_from_name(TouchedFrom from);  // "point", "dram_reads", "program", "region"

struct LlcNearFull {
    double touched_bytes = 0;  // the data the point (or the code around it: `touched_from`) touched
    // A marker region whose openings did not all re-read each other's data: `touched_bytes` is its
    // working set (kCacheWorkingSetBytes), and this the union over all its openings, said beside it
    // when larger by more than the sketch's error (0: not said).
    double touched_all_openings_bytes = 0;
    bool touched_counted = true;  // true: its distinct lines (sketch); false: a lower bound, its DRAM reads
    TouchedFrom touched_from = TouchedFrom::point;
    double llc_bytes = 0;      // the simulated last level's capacity: one instance
    int llc_level = 0;         // 3: "L3"
    // The instances of it the simulated machine has (0: not said, taken as one), the cores that
    // share one, the point's threads, and the instances those threads need (ceil(threads / cores
    // per instance), at most `instances`): the capacity the share is of is `instances_used` x
    // `llc_bytes`, the threads taken to fill one instance's cores before the next.
    int instances = 0;
    int cores_per_instance = 0;
    int threads = 1;
    int instances_used = 1;
    // A function's or loop's point (kCacheEnclosingThreads): which threads ran it is not counted, only
    // the program's (or region's) `enclosing_threads`; where those need more instances than one
    // thread, the capacity is theirs when the data fills 50-150% of it (`threads` then those
    // threads, `threads_of_enclosing` true), else one thread's; `one_thread_share` is the share of
    // one instance, said beside it.
    int enclosing_threads = 0;
    bool enclosing_is_region = false;  // the enclosing code is a marker region (a loop's), not the program
    bool threads_of_enclosing = false;
    double one_thread_share = 0;
    double capacity_bytes = 0;  // instances_used x llc_bytes
    double share = 0;          // touched_bytes / capacity_bytes
    double llc_read_bytes = 0;   // read up from the LLC (its level's boundary)
    double dram_read_bytes = 0;  // read from DRAM
};

// nullopt unless the point has the cache simulation's figures, touched data of 50% to 150% of
// the LLC capacity its threads could use (a marker region opened several times: its working set,
// kCacheWorkingSetBytes, not the union of its openings' data), and re-reads it from there (LLC reads >= 2x DRAM
// reads). A function's or loop's point, whose threads are not counted, is judged at the capacity
// of the threads its program (or region) ran, then at one thread's. Without the tool's count of distinct lines (a function's or loop's point, or an older
// tool), its DRAM reads stand for it when they reach 50% (a lower bound, each line's first
// touch); else what the program (a loop of a marker region: the region) touched, when that is
// 50% to 150% and the point itself read at least half the capacity back from the LLC, so
// that a loop reading a few lines there is not named for the program's data.
std::optional<LlcNearFull> llc_near_full(const Point& p);

// "the data it touched (about 30 MiB) fills 94% of the simulated 32 MiB L3; a real L3 (shared,
// not LRU) spills some of it: DRAM bytes here are a lower bound"; for a region whose openings'
// data differ, "the data it touched (about 6 MiB at once: an opening's, with the lines of earlier
// openings it touched again; 18 MiB over all its openings) fills ..."; for a loop, "the program
// touched about 30 MiB, which fills 94% of ..., and it re-reads from the L3 (its L3 reads 9.5x
// its DRAM reads; its own data is not counted); ..."; several instances said with the assumption.
std::string llc_near_full_text(const LlcNearFull& n);

} // namespace roofline
