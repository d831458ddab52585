// A program timed more than once (`measure --repeat`): how many runs, which of them
// are a warm-up, and the time a point takes from them (the fastest timed run) with the
// spread that compare and history judge a change against. Pure functions.
//
// Why the fastest: noise on a shared host (another tenant on the core, a frequency
// step, a page-cache miss) only ever adds time, so the fastest run is the closest to
// what the code costs, and the one that repeats from one measurement to the next. The
// spread (slowest / fastest - 1) says how noisy the runs were. Why a warm-up: the first
// run after a build reads the program and its data from disk, faults its pages in and
// meets a CPU still ramping its clock; that is the cold case, which a warm timing
// leaves out (its time is still recorded, details.seconds_warmup).
#pragma once

#include "core/machine_model.hpp"
#include "core/roofline.hpp"
#include "core/timing_summary.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace roofline {

// With no --repeat: a program whose first run leaves room in this budget for a warm-up and
// at least two timed runs is run again, up to kAutoTimedRuns timed runs; a longer one is
// timed once.
inline constexpr double kAutoRepeatBudgetSeconds = 3.0;
inline constexpr int kAutoTimedRuns = 5;
inline constexpr int kMaxRepeat = 1000;

struct RepeatRequest {
    int timed_runs = 0;   // --repeat K; 0: automatic (from the first run's length)
    int warmup_runs = -1;  // --warmup N; -1: 1 when more than one run is timed, else 0
    // --cold: a buffer of this many bytes is written and read before every native run (the
    // first included), so that each starts with caches holding none of the run before; 0: warm.
    std::uint64_t cold_flush_bytes = 0;
};

// measure --cold: the buffer that empties the caches between runs. Twice the largest cache
// level's size (one instance: the cache a run shares with roofline), as streaming twice a
// cache's size through it leaves close to none of what it held, whatever its replacement
// policy; whole MiB, at least kColdFlushMinBytes, at most kColdFlushMaxBytes (a guest can
// report a cache of hundreds of MiB: the checked sizes come first, the cap bounds the rest);
// kColdFlushUnknownBytes when no cache size is known.
inline constexpr std::uint64_t kColdFlushMinBytes = 8ull << 20;
inline constexpr std::uint64_t kColdFlushMaxBytes = 1ull << 30;
inline constexpr std::uint64_t kColdFlushUnknownBytes = 256ull << 20;
std::uint64_t cold_flush_bytes(const std::vector<CacheLevel>& caches);

// What is done once the first run took `first_seconds`: `warmup` runs (the first
// among them) whose times are not the point's, then `timed` runs. The first run
// itself is one of them: runs_total() - 1 further runs follow it.
struct RepeatPlan {
    int warmup = 0;
    int timed = 1;
    bool automatic = false;
    int runs_total() const { return warmup + timed; }
};
RepeatPlan plan_repeats(const RepeatRequest& request, double first_seconds);

// The summary of the timed runs' seconds (each > 0); throws std::invalid_argument when empty.
TimingSummary summarize_runs(const std::vector<double>& timed, const std::vector<double>& warmup = {});

// Point::details keys a timed point carries: "runs" and, for more than one run, "seconds_fastest" (= seconds),
// "seconds_median", "seconds_slowest", "seconds_spread" (slowest / fastest - 1) and, with a
// warm-up, "warmup_runs" and "seconds_warmup" (the first warm-up run's time).
inline constexpr const char* kRunsDetail = "runs";
void record_timing(Point& p, const TimingSummary& t);
// A point's timing as record_timing wrote it; nullopt for a point without "runs"
// (a single run measured before --repeat, a reference kernel's samples).
std::optional<TimingSummary> timing_of(const Point& p);

} // namespace roofline
