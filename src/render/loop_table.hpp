// The table `roofline measure --loops` prints: the program's loops, function by
// function, nested loops indented under their outer loop (issue 36).
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace roofline {

struct LoopRow {
    std::string function;
    std::string name;        // "loop_shapes.c:22-23", or "daxpy+0x10" without debug information
    int depth = 1;           // 1: outermost in its function
    double self_flops = 0;   // its own blocks (its body less its inner loops)
    double inclusive_flops = 0;  // its inner loops' and its calls' too
    double call_flops = 0;       // what the functions it calls did, shared by their call counts
    double self_bytes = 0;   // L1 bytes its own instructions load and store
    std::optional<double> self_dram_bytes;  // cache simulation: its own instructions' bytes reaching DRAM
    double iterations = 0;   // its back edges' executions
    double entries = 0;
    std::optional<long long> self_samples;  // nullopt: no sampled run
    double seconds_per_sample = 0;  // of one run's time
};

// A titled table: per function, its loops (indented by depth) with self and inclusive
// FLOPs (and the FLOPs of the functions they call, where any did), self L1 (and DRAM) bytes and intensity, iterations and entries, and with
// samples the loop's own CPU time with its sampling error (±1/√n of it).
std::string render_loop_table(const std::string& title, const std::vector<LoopRow>& rows);

} // namespace roofline
