// What `roofline topology` prints: text for people, or one JSON object
// (schema roofline.topology/1) for scripts.
#pragma once

#include "core/topology_report.hpp"
#include "render/report.hpp"

#include <string>

namespace roofline {

// format: text or json (the others throw std::invalid_argument).
std::string render_topology(const TopologyReport& report, ReportFormat format);

} // namespace roofline
