// What `roofline model` prints: kernels described on paper placed on a
// roofline (text, or JSON schema roofline.model/1), and the one-line formula.
#pragma once

#include "core/kernel_spec.hpp"
#include "core/roofline.hpp"
#include "render/report.hpp"

#include <string>
#include <vector>

namespace roofline {

// min(peak, bandwidth x intensity) for given figures.
struct FormulaResult {
    std::string work_unit = "FLOP";
    double peak = 0;        // G<unit>/s
    double bandwidth = 0;   // GB/s
    double intensity = 0;   // <unit>/B
    double attainable = 0;
    double ridge = 0;
    bool memory_bound = false;
};

// One kernel spec from one file and what the model predicts for it.
struct KernelModelResult {
    KernelSpec spec;
    std::string file;
    KernelPrediction prediction;
};

// format: text or json (the others throw std::invalid_argument).
std::string render_formula(const FormulaResult& result, ReportFormat format);
std::string render_kernel_models(const Roofline& r, View view, const std::vector<KernelModelResult>& kernels,
                                 ReportFormat format);

} // namespace roofline
