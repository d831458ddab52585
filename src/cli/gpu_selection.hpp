// --gpu N[:PRECISION] of plot and report: the roofline of GPU N of a machine model
// (measured by bench --gpu), read the same way by every command that takes it.
#pragma once

#include "core/machine_model.hpp"
#include "core/roofline.hpp"

#include <string>
#include <vector>

namespace roofline::cli {

// `text`: "0" or "0:bf16"; without a precision, `preferred` (the kernels' own, e.g. fp16 for
// an HGEMM: core's dominant_gpu_precision) where the GPU has a roof of it, else
// `default_precision` ("fp64" for a DP chart; any spelling core/precision reads, "dp" too).
// `source` names the model in messages.
// UsageError for bad text or a precision the GPU lacks; std::runtime_error when the model
// has no GPU N. The label ends in the precision.
Roofline selected_gpu_roofline(const MachineModel& model, const std::string& text,
                               const std::string& default_precision, const std::string& source,
                               const std::string& preferred = "");

// CUDA kernels' points (measure --engine ncu) judged on a CPU roofline would sit far above it:
// UsageError naming the first one and --gpu, unless `gpu_chosen`.
void require_gpu_roofline_for_gpu_points(const std::vector<Point>& points, bool gpu_chosen);

} // namespace roofline::cli
