// What a bench run measures, decided before it starts (so progress can say
// "n of m"). Built from the options and the topology; pure data.
#pragma once

#include "core/working_sets.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace roofline {

struct BenchOptions {
    std::string mode = "quick";             // "quick" or "full"
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

// Default total time budget per mode, seconds.
double default_time_budget(const std::string& mode);

} // namespace roofline
