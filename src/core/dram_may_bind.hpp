// The bound a point would have if its DRAM bytes were not a lower bound. Where the cache
// simulation's data fill most of its LLC and are re-read there (core/llc_occupancy), a real LLC
// (shared, not LRU) spills some of them, and each re-read may come from DRAM instead: the DRAM
// intensity is then an upper bound, and a point judged compute-bound (or bound at a cache) on it
// may be DRAM-bound. An audit's AXPY on 32 MiB of data, 101% of the simulated L3, was called
// compute-bound in the ORM view at 4245 FLOP/B and told to mix its FMAs with other operations.
// Pure.
#pragma once

#include <optional>
#include <string>

namespace roofline {

struct Point;     // core/roofline.hpp
struct Roofline;  // core/roofline.hpp
struct LlcNearFull;  // core/llc_occupancy.hpp

struct DramMayBind {
    std::string roof;        // the DRAM roof's name
    double attainable = 0;   // what that roof allows with the DRAM bytes at their upper bound
    double intensity = 0;    // the DRAM intensity then
    double dram_bytes = 0;   // the counted DRAM bytes (a lower bound)
    double dram_bytes_upper = 0;  // counted + re-read from the LLC, at most what the roof moves in its time
    bool upper_from_time = false;  // the roof's bytes in its time were the smaller
};

// nullopt unless `n` (its DRAM bytes are a lower bound), the roofline has a DRAM roof, the point has
// counted work and time, and with its DRAM bytes at their upper bound that roof caps it below
// `attainable` (what the counted bytes bound it at). The upper bound: the counted DRAM bytes plus
// every byte it re-read from the LLC, at most what the DRAM roof moves in the point's time (it ran
// that fast, so no more could have come from DRAM).
std::optional<DramMayBind> dram_may_bind(const Roofline& r, const Point& p, const LlcNearFull& n, double attainable);

// "its DRAM bytes are a lower bound: were the bytes it re-read from the L3 read from DRAM instead
// (2.3 GiB in all, not 96.5 KiB), the DRAM copy+WA roof would cap it at 8.7 GFLOP/s (0.17 FLOP/B at
// DRAM), below the 177 GFLOP/s of SP peak: it may be DRAM-bound, ...; count its DRAM traffic with
// hardware counters (the perf engine) where the CPU has them"
std::string dram_may_bind_text(const DramMayBind& d, const std::string& binding_roof, double binding_attainable,
                               const std::string& llc_level);

} // namespace roofline
