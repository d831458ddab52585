// The human-readable summary printed after a bench run.
#pragma once

#include "core/machine_model.hpp"

#include <string>

namespace roofline {

// `verbose`: every note in full; otherwise the notes that only say a figure had
// one burst (or bursts that disagree) are counted in one line each, with the
// remedy, and the rest are listed.
std::string format_bench_summary(const MachineModel& model, bool verbose = false);

} // namespace roofline
