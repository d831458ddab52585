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

} // namespace roofline
