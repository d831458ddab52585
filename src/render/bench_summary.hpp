// The human-readable summary printed after a bench run.
#pragma once

#include "core/machine_model.hpp"

#include <string>

namespace roofline {

std::string format_bench_summary(const MachineModel& model);

} // namespace roofline
