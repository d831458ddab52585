// What a bench run measures, decided before it starts (so progress can say
// "n of m"). Built from the options and the topology; pure data.
#pragma once

#include "core/bench_mode.hpp"
#include "core/working_sets.hpp"

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace roofline {

struct BenchOptions {
    BenchMode mode = BenchMode::quick;
    bool compute = true;
    bool memory = true;
    bool validate = false;                  // the arithmetic-intensity validation sweep
    std::vector<std::string> precisions{"dp", "sp"};
    std::vector<int> thread_counts;         // empty: {1, all cores}
    double time_budget_seconds = 0;         // 0: the mode's default
    std::vector<std::uint64_t> working_sets;  // explicit per-thread sizes (replaces the per-level choice)
    std::vector<std::string> patterns;      // explicit memory patterns (replaces the mode's set)
    std::uint64_t dram_bytes = 0;           // total DRAM working set; 0: max(1 GiB, 8 x last-level cache)
    std::string isa;                        // only kernels of this ISA ("sse2", "avx2", "avx512"); empty: any
    std::vector<std::string> kernels;       // only these kernels (bench --list names them); empty: the mode's
};

// Which setting of a BenchOptions an error is about, so the command line can
// name its own flag: the library describes the problem, not a flag.
enum class BenchSetting { threads, precision, mode, time_budget, pattern, parts, validate, isa, kernel };

struct BenchOptionError : std::invalid_argument {
    BenchOptionError(BenchSetting which, const std::string& what) : std::invalid_argument(what), setting(which) {}
    BenchSetting setting;
};

// Default total time budget per mode, seconds.
double default_time_budget(BenchMode mode);

// The largest time budget a run accepts: a week. A full run takes minutes; a
// budget beyond this is a typo (or inf), and would turn into sample counts and
// deadlines no clock arithmetic should see.
inline constexpr double max_time_budget_seconds = 7 * 24 * 3600.0;

} // namespace roofline
