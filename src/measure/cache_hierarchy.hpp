// The cache hierarchy the Valgrind tool simulates under the instrument engine
// (tools/vgtool/rl_cachesim.h), from the caches topology found on this machine.
#pragma once

#include "core/machine_model.hpp"
#include "core/topology_report.hpp"

#include <string>
#include <vector>

namespace roofline::measure {

struct SimulatedHierarchy {
    std::string option;              // the tool's --roofline-cache value: SIZE:WAYS:LINE:SHARED_BY[:victim],...
    std::string description;         // for people and provenance: "L1 32 KiB 8-way, L2 ..., L3 32 MiB 16-way victim (shared by 8)"
    std::vector<std::string> notes;  // what had to be assumed (unknown ways, a size rounded to whole sets)
};

// Data caches, L1 first (Topology::data_caches), as the simulator takes them. The last
// level of an AMD CPU is a victim cache of L2 (AMD's Software Optimization Guide for
// Zen: "the L3 is filled from L2 victims"); other levels and vendors are modelled as
// neither inclusive nor exclusive. A spec sheet gives sizes only: 64-byte lines and 8
// ways are then assumed, and said in `notes`. Throws std::invalid_argument when there
// is nothing to simulate (no level with a size), when the levels are not L1, L2, ...
// in turn, a line is not a power of two from 8 to 4096 B, a level is below one line
// or above 4 GiB, or the tags would need more than 4 GiB.
// `cores`: what the threads are spread over; private levels cost memory per core
// (refused above 4 GiB of tags in all).
SimulatedHierarchy simulated_hierarchy(const std::vector<CacheLevel>& caches, const std::string& vendor, int cores);

// The tool's --roofline-cpu-cores value: for each CPU by OS number, the simulated core
// it belongs to (the topology's logical core index), "0,0,1,1"; a CPU of no core, or
// of a core at or above `cores`, is left empty. Empty when no core has a CPU.
std::string cpu_core_map(const std::vector<CoreDetail>& topology_cores, int cores);

} // namespace roofline::measure
