// What `roofline remove` prints of the rows it removed (or, in a dry run, would
// remove): text for a person, JSON (schema roofline.remove/1) for a script.
#pragma once

#include "core/stored_entries.hpp"
#include "render/report.hpp"

#include <string>

namespace roofline {

// `rows` as the store's remove_rows gave them (complete: no unknown ids); `store_path` is
// named in the JSON. Text and JSON only (others throw std::invalid_argument).
std::string render_store_removal(const std::string& store_path, const RemovedRows& rows, bool dry_run,
                                 ReportFormat format);

} // namespace roofline
