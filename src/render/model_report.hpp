// What `roofline model` prints: kernels described on paper placed on a
// roofline (text, or JSON schema roofline.model/1), and the one-line formula.
#pragma once

#include "core/kernel_footprint.hpp"
#include "core/kernel_spec.hpp"
#include "core/kernel_spec_roofs.hpp"
#include "core/roofline.hpp"
#include "render/report.hpp"

#include <optional>
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

// Why a kernel was judged on its roofline's precision.
enum class PrecisionChoice {
    own,           // the spec's own (declared, or all its floating-point operands' type)
    asked,         // --precision (the spec's own may differ)
    own_missing,   // the machine has no roof of the spec's own: the lower peak it has
    lower_peak,    // the spec does not say (types mixed or none): the lower of the dp and sp peaks
    figures,       // --peak/--bw: the one peak given is taken as the kernel's precision's
    not_flop,      // work in another unit: the roofline the command chose
};

// One kernel spec from one file and what the model predicts for it, on the roofline
// of the precision it was judged on.
struct KernelModelResult {
    KernelSpec spec;
    std::string file;
    KernelPrediction prediction;
    Roofline roofline;
    SpecPrecision precision;  // what the spec says of its FLOPs
    PrecisionChoice choice = PrecisionChoice::own;
    // The working set fits a cache: `spec` is fit->placed (predicted from that level),
    // and from_memory the prediction of the spec as written (the first, cold pass).
    std::optional<CacheFit> fit;
    std::optional<KernelPrediction> from_memory;
    std::vector<std::string> warnings;  // as residency_problem_text words them
    // How `roofline`'s compute and bandwidth roofs were chosen for this loop (its mix of loads
    // and stores per level, its ISA), and the machine's own fastest roof per level (the header).
    ComputeRoofChoice compute_choice;
    std::vector<LevelRoofChoice> level_choices;
    std::vector<Roof> machine_bandwidth;
};

// A declared residence the caches cannot be shown to hold, in a sentence (no kernel
// name; `threads` for "for 2 threads").
std::string residency_problem_text(const KernelSpec& spec, const ResidencyProblem& problem, int threads);
// A warning for an operand counted from an outer level than its own size fits (core/kernel_footprint.hpp).
std::string reused_operand_text(const ReusedOperand& reused, int threads);
// A working set a cache holds at `threads` threads where the model has no roof of that cache
// at that thread count, or the ORM view bounds by DRAM alone: the prediction comes from
// `predicted_from` ("L3", or "" for as written).
std::string unroofed_fit_text(const CacheFit& fit, int threads, const std::string& predicted_from, View view);

// format: text or json (the others throw std::invalid_argument). The machine's header
// comes from the kernels' rooflines (one machine, thread count and view; a compute roof
// per precision they were judged on).
std::string render_formula(const FormulaResult& result, ReportFormat format);
std::string render_kernel_models(View view, const std::vector<KernelModelResult>& kernels, ReportFormat format);

} // namespace roofline
