// --gpu N[:PRECISION] of plot and report: the roofline of GPU N of a machine model
// (measured by bench --gpu), read the same way by every command that takes it.
#pragma once

#include "core/machine_model.hpp"
#include "core/point_device.hpp"
#include "core/roofline.hpp"

#include <optional>
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

// The points of --gpu N[:PRECISION] split by the GPU roofline that judges them. Without a
// precision (in `text`, or `precision_given`), each CUDA kernel on the roofline of its own
// precision (core's group_by_gpu_precision), work that ran on the tensor cores on that
// precision's tensor roof alone; points with no FLOPs by precision on `default_precision`'s.
// With one, every point on it, but tensor-core work of another precision, or of that one when
// the GPU has no tensor roof of it, is never judged on it. A part the GPU has no roof for has
// no roofline and says why (`not_judged`): never another precision's roof instead (FMA work of
// a precision without a roof still goes to `default_precision`'s, as FMA roofs). At least one
// part has a roofline (the asked or default precision's, with no points when none fits it).
struct GpuJudgingPart {
    std::optional<Roofline> roofline;  // label ending in the precision
    std::string title;                 // "kernels in fp16 (tensor cores)"
    std::string not_judged;            // why there is no roofline
    std::vector<Point> points;
};
std::vector<GpuJudgingPart> gpu_judging_parts(const MachineModel& model, const std::string& text,
                                              const std::string& default_precision, const std::string& source,
                                              const std::vector<Point>& points, bool precision_given);

// What the GPU limit guard (core/gpu_specs: refuse_gpu_roofs_above_limit) says, as the model is
// read, of the roofs of --gpu N's GPU that it kept: no specification table judged them (an
// architecture the table lacks, held to the bounds any GPU keeps), a clock read above the max
// boost. One line each, "GPU N (NAME): ...", as show lists them among the model's notes; none
// for a GPU the table judges in full, or a model without GPU N (the caller says that).
std::vector<std::string> gpu_limit_notes(const MachineModel& model, const std::string& text);

// The message for --gpu text that is not N or N:PRECISION ("" when it is one): checked as the
// option is parsed, so a configured value is too; whether the GPU and its precision exist is
// known only from the model.
std::string gpu_choice_problem(const std::string& text);

// A point is judged only on its own device's roofline (core's point_device): a CUDA kernel
// (measure --engine ncu) on a CPU's would sit far above it, a CPU's point on a GPU's means
// nothing. UsageError naming the first point measured on the other device and what judges it;
// points of no device (analytic, model, a file naming no origin) pass.
void require_points_on_their_device(const std::vector<Point>& points, Device roofline);

} // namespace roofline::cli
