// bench --mpi's summary: each roof across the nodes, and the sick-node report.
#pragma once

#include "core/cluster_model.hpp"

#include <string>

namespace roofline {

std::string format_cluster_summary(const ClusterModel& cluster);

} // namespace roofline
