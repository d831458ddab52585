// `roofline report --job`: a monitored job's summary (time memory- vs compute-bound,
// efficiency over time) and its samples, as text or JSON.
#pragma once

#include "core/job_summary.hpp"

#include <string>

namespace roofline {

std::string render_job_report_text(const std::string& job, const JobSummary& summary, const std::string& work_unit);
std::string render_job_report_json(const std::string& job, const JobSummary& summary, const std::string& work_unit);

} // namespace roofline
