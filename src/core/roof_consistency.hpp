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

} // namespace roofline
