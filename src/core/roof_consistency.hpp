// Memory roofs that cannot all be true together: a team far below what fewer
// threads reached on the same level and pattern, a single thread far below its
// share of the team, or a DRAM pattern far below the others of its thread
// count (a guest once stored DRAM copy at 1.4 GB/s beside 62.5 GB/s with two
// threads, while pages were still being populated). Pure.
#pragma once

#include "core/machine_model.hpp"

#include <cstddef>
#include <string>
#include <vector>

namespace roofline {

struct SuspectRoof {
    std::size_t index = 0;  // into the roofs given
    std::string reason;     // for people: what it was compared with
};

// Roofs of the given set that contradict another of the set.
std::vector<SuspectRoof> inconsistent_memory_roofs(const std::vector<MemoryRoof>& roofs);

// A measured roof this far above its theoretical figure (the table's pipes and ports at the
// higher of the clocks measured before and after) cannot be true: more than the clock
// measurement's error.
inline constexpr double kRefuseAboveTheory = 0.03;

// Removes from `model` every compute and memory roof above its theoretical figure by more
// than kRefuseAboveTheory (a roof without one is kept) and returns why, one line each,
// naming the roof.
std::vector<std::string> refuse_roofs_above_theory(MachineModel& model);

// How a roof's theoretical_clock begins when bench judged it at a clock read again next to it,
// having come out above its limit at the clock before the run (bench/roof_limit_guard); the run's
// note on it is "NAME: " followed by that text.
inline constexpr const char* kClockRemeasuredNextToRoof = "re-measured next to the roof";

// Data from an outer level passes through the inner ones on its way to the core, so an outer
// level's roof this many times the fastest inner level's (same pattern and thread count)
// cannot be true: a DRAM roof edited 100x, or a unit slip. The factor leaves room for an
// inner roof measured low on a noisy machine; it catches what cannot be noise.
inline constexpr double kOuterLevelAllowance = 1.5;

// Removes from `model` every memory roof of a level beyond L1 (L2.., DRAM, HBM) faster than
// kOuterLevelAllowance times the fastest roof of the levels before it at the same pattern
// and thread count, or faster than that times the level just before it while at or above
// another level before it too (two witnesses: not one inner roof measured low), and returns
// why, one line each, naming the roofs. Buses, NUMA pairs and
// working sets of no level are not compared.
std::vector<std::string> refuse_outer_levels_faster_than_inner(MachineModel& model);

// One thread's load roof at each cache level, and DRAM's, against the cache probe's curve of the same run (a
// sweep of one thread's loads over working sets, an independent measurement): the curve's median
// over the level's plateau (from twice the level before it to half the level's size) is what that
// level gives one thread. A roof under kProbeLowShare of it was measured low (its bursts
// disturbed); one over kProbeHighShare of it most likely ran in an inner level (its working set
// fits there), as a GPU "L2" roof once measured L1. One line each, naming both figures; empty
// when the model has no probe or a level too few probe points.
// DRAM's load roof (1 thread) is held against the curve's points past twice the last cache
// (at least kProbeDramPoints of them): under kProbeDramLowShare of their median it was measured
// low (the curve there still gets some lines from a victim cache, so the share is looser), over
// kProbeHighShare its working set sat in a cache.
inline constexpr double kProbeLowShare = 0.8;
inline constexpr double kProbeHighShare = 1.6;
inline constexpr double kProbeDramLowShare = 0.5;
inline constexpr std::size_t kProbeDramPoints = 2;
std::vector<std::string> roofs_against_cache_probe(const MachineModel& model);

} // namespace roofline
