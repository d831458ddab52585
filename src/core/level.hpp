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

// The levels the model knows: caches L1..L4, DRAM, HBM, the buses PCIe, NVLink
// and network, and NUMA pairs "NUMA<i>-><j>" (any case for L<n> and DRAM). A name
// outside these is a typo or a level nothing here can measure, so readers refuse it.
bool is_known_level(std::string_view level);
// For messages: "L1, L2, L3, L4, DRAM, HBM, PCIe, NVLink, network or NUMA<i>-><j>".
const char* known_levels_text();

// True for the levels of a machine's own memory: caches L1..L4, DRAM, HBM (any case);
// not buses, NUMA pairs or working sets of no known level.
bool is_memory_level(std::string_view level);

// True for a bus that ships work's data to or from a device or node: PCIe, NVLink, network.
bool is_bus_level(std::string_view level);

// True for a NUMA pair ("NUMA0->1"), a figure between nodes rather than a level.
bool is_numa_pair(std::string_view level);

// What models of earlier versions call a memory roof measured at a working set the
// user chose (bench --working-set) without saying which level it fell in. Such a
// roof is kept and shown, but is no level's roof: nothing judges a point against it.
inline constexpr std::string_view kCustomWorkingSetLevel = "custom";
bool is_custom_working_set(std::string_view level);

} // namespace roofline
