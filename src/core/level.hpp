// Memory levels by name, the one vocabulary every layer uses: caches "L1",
// "L2", ... (any case on input), "DRAM", then other bandwidth levels (a bus such
// as "PCIe", a NUMA pair "NUMA0->1"). Pure.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace roofline {

// The cache number of "L2" or "l2"; nullopt for anything that is not L<digits>.
std::optional<int> cache_level_number(std::string_view level);

// The spelling models and points store: "l2" -> "L2", "dram" -> "DRAM"; other
// names unchanged.
std::string canonical_level(std::string_view level);

// Closer to the core first: L1 < L2 < ... < DRAM < anything else, ties by name.
bool level_before(std::string_view a, std::string_view b);

// True for a NUMA pair ("NUMA0->1"), a figure between nodes rather than a level.
bool is_numa_pair(std::string_view level);

} // namespace roofline
