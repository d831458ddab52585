// `roofline report --job`: a monitored job's summary (time memory- vs compute-bound,
// efficiency over time) and its samples, as text or JSON.
#pragma once

#include "core/job_summary.hpp"

#include <string>

namespace roofline {

// A monitored sample's time: its end from the job's first sample's start, "+12 s", with the
// decimals the sampling interval needs for every sample to have a label of its own ("+0.25 s"
// every 0.1 s). The monitor's lines, report --job and plot --job all label with it, so one
// sample reads the same in each. interval_seconds <= 0 (not known): whole seconds.
std::string sample_time_label(double offset_seconds, double interval_seconds);
// A span of a job's time, "+0-60 s", "+0.0-5.0 s": its two ends as sample_time_label writes
// them, so plot --job's time bands read as their samples' labels do.
std::string sample_time_span_label(double from_seconds, double to_seconds, double interval_seconds);

std::string render_job_report_text(const std::string& job, const JobSummary& summary, const std::string& work_unit);
std::string render_job_report_json(const std::string& job, const JobSummary& summary, const std::string& work_unit);

} // namespace roofline
