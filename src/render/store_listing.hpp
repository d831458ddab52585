// What `roofline list` prints: the machine models and point sets in the
// results store, as text, JSON (schema roofline.list/1) or CSV.
#pragma once

#include "core/stored_entries.hpp"
#include "render/report.hpp"

#include <string>
#include <vector>

namespace roofline {

// `store_path` is named in the output; markdown is not offered (throws std::invalid_argument).
std::string render_store_listing(const std::string& store_path, const std::vector<StoredMachine>& machines,
                                 const std::vector<StoredPointSet>& point_sets, ReportFormat format);

} // namespace roofline
