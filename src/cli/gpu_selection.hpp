// --gpu N[:PRECISION] of plot and report: the roofline of GPU N of a machine model
// (measured by bench --gpu), read the same way by every command that takes it.
#pragma once

#include "core/machine_model.hpp"
#include "core/point_device.hpp"
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

// A point is judged only on its own device's roofline (core's point_device): a CUDA kernel
// (measure --engine ncu) on a CPU's would sit far above it, a CPU's point on a GPU's means
// nothing. UsageError naming the first point measured on the other device and what judges it;
// points of no device (analytic, model, a file naming no origin) pass.
void require_points_on_their_device(const std::vector<Point>& points, Device roofline);

} // namespace roofline::cli
