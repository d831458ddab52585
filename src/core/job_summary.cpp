#include "core/job_summary.hpp"

#include "core/statistics.hpp"

#include <algorithm>

namespace roofline {

JobSummary summarize_job(std::vector<JobSample> samples) {
    std::stable_sort(samples.begin(), samples.end(),
                     [](const JobSample& a, const JobSample& b) { return a.offset_seconds < b.offset_seconds; });
    JobSummary s;
    s.samples = samples.size();
    std::vector<double> efficiencies;
    for (const auto& x : samples) {
        s.seconds += x.seconds;
        if (!x.analysis) {
            s.unjudged_seconds += x.seconds;
            continue;
        }
        ++s.judged;
        (x.analysis->memory_bound ? s.memory_bound_seconds : s.compute_bound_seconds) += x.seconds;
        efficiencies.push_back(x.analysis->efficiency);
    }
    if (!efficiencies.empty()) {
        s.efficiency_min = *std::min_element(efficiencies.begin(), efficiencies.end());
        s.efficiency_max = *std::max_element(efficiencies.begin(), efficiencies.end());
        s.efficiency_median = median(efficiencies);
    }
    s.rows = std::move(samples);
    return s;
}

} // namespace roofline
