// The hierarchy probe: one thread's load bandwidth over working sets from a few
// KiB to past the last cache, on the widest load kernel. Where its curve drops
// from one plateau to the next is where each cache level really ends
// (core/cache_check.hpp), whatever the machine reports about its caches.
#pragma once

#include "core/machine_model.hpp"
#include "topo/topology.hpp"

#include <atomic>
#include <cstdint>
#include <vector>

namespace roofline {

// Sizes from 8 KiB to `reach` bytes, three per octave, each the best of a few
// short samples (whole passes, the buffer faulted in first). Takes about a
// second (more where page faults are slow). Stops early, with the sizes measured
// so far, when `stop` is set. The curve's `pattern` is "load", `threads` 1.
BandwidthCurve probe_load_curve(const Topology& topology, std::uint64_t reach, const std::atomic<bool>* stop = nullptr);

// This machine's data caches (L1 first) as everyone should use them: what it
// reports, checked against the microarchitecture table and, when `probe` says
// so or a size is still doubted, against the probe's curve (core/cache_check.hpp).
// `probe_curve`, when given, receives the curve (empty when no probe ran).
enum class CacheProbe { when_doubtful, always };
std::vector<CacheLevel> checked_data_caches(const Topology& topology, CacheProbe probe,
                                            BandwidthCurve* probe_curve = nullptr,
                                            const std::atomic<bool>* stop = nullptr);

} // namespace roofline
