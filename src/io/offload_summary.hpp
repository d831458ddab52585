// Reads the JSON the offload injection library writes, one file per CUDA process
// (tools/offload/offload_tally.hpp, schema roofline.offload/1), into core's OffloadSummary. Every count must be a non-negative integer;
// errors name the file and the JSON path.
#pragma once

#include "core/offload_point.hpp"

#include <string>

namespace roofline {

OffloadSummary offload_summary_from_text(const std::string& text, const std::string& source);
OffloadSummary read_offload_summary(const std::string& path);

} // namespace roofline
