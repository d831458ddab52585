// Summary statistics of repeated measurements (pure functions).
#pragma once

#include "core/machine_model.hpp"

#include <vector>

namespace roofline {

double median(std::vector<double> values);
double mean(const std::vector<double>& values);
// Sample standard deviation / mean; 0 for fewer than two values or a zero mean.
double coefficient_of_variation(const std::vector<double>& values);
// Median, min, max, CV and count. `stable` is set from `cv_target`.
Stats summarize(const std::vector<double>& values, double cv_target = 0.02);

// The q-quantile (0..1) with linear interpolation between order statistics; 0 when empty.
double quantile(std::vector<double> values, double q);

// A figure sampled in bursts: its value is the q-quantile of the bursts' best
// samples (returned); `stats` gets median/min/max/CV over every sample, the
// burst count and q. Stable when the best samples of at least two bursts reach
// within `agreement` of the value. The best of a burst, not its median: on a
// shared host (another tenant on the SMT sibling) quiet windows last
// milliseconds, so one short sample finds one where five in a row rarely do;
// taking it from two bursts far apart in time guards against a lone glitch.
double summarize_bursts(const std::vector<std::vector<double>>& bursts, double q, double agreement, Stats& stats);

} // namespace roofline
