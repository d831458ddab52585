// plot --job and report --job: a monitored job's samples from the store (the sets
// 'job ID NODE' that `roofline monitor` writes), labelled by time.
#pragma once

#include "cli/stored_source.hpp"
#include "core/roofline.hpp"

#include <optional>
#include <string>
#include <vector>

namespace roofline::cli {

// Every sample of `job`, oldest first: series = node, label = "+N s" from the job's first
// sample. Throws std::runtime_error when the store has none.
std::vector<Point> load_job_points(StoreAccess& access, const std::string& job);

// For the chart: the samples (in time order) split into up to `bands` consecutive bands of
// equal size, each node's samples in a band a series of its own ("node +0-40 s"; its ends as
// the samples' labels are written, render's sample_time_span_label: "node +0.0-5.0 s" at a
// 1 s interval), so the chart's series colours tell early from late.
void band_by_time(std::vector<Point>& points, int bands);

struct JobReportArgs {
    std::string job;
    std::string machine;  // a StoredSource's text
    std::string format;   // text or json
    std::string view;     // carm or orm
    std::optional<std::string> precision;
    std::optional<int> threads;
    std::string output;
    std::string db;
    bool quiet = false;
};

// report --job: time memory- vs compute-bound and the efficiency over time.
int run_job_report(const JobReportArgs& args);

} // namespace roofline::cli
