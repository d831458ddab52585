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

} // namespace roofline
