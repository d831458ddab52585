// A monitored job over time (`roofline report --job`): its samples judged one by one
// against the node's roofline, summed up as time spent memory- vs compute-bound and
// the efficiency over time. Pure.
#pragma once

#include "core/roofline.hpp"

#include <optional>
#include <string>
#include <vector>

namespace roofline {

struct JobSample {
    std::string node;
    double offset_seconds = 0;  // the sample's end, from the job's first sample's start
    double seconds = 0;         // the sample's length
    double performance = 0;     // G<unit>/s (0 when idle)
    std::optional<Analysis> analysis;  // nullopt: not judged (idle, or no bytes at a roofed level)
};

struct JobSummary {
    std::size_t samples = 0;
    std::size_t judged = 0;
    double seconds = 0;                // sum of the samples' lengths
    double memory_bound_seconds = 0;
    double compute_bound_seconds = 0;
    double unjudged_seconds = 0;       // idle samples and those without bytes at a roofed level
    std::optional<double> efficiency_min, efficiency_median, efficiency_max;  // over judged samples
    std::vector<JobSample> rows;       // by offset
    double interval_seconds = 0;       // the sampling interval (0: not known), how finely times are told
};

JobSummary summarize_job(std::vector<JobSample> samples);

} // namespace roofline
