// measure --engine ncu: the CUDA kernels' table (launches, time, GFLOP/s, the roof each is
// judged on and the share of its FLOPs there, DRAM bandwidth and intensity; "-" for a figure
// ncu did not record), the kernels whose FLOPs are unknown, and the whole-offload point's lines
// (launches, copies, span, bus traffic, transfer intensity, its FLOPs by precision, and the
// compute and bus roofs that judge it on a stored model's GPU).
#pragma once

#include "core/offload_point.hpp"
#include "core/roofline.hpp"

#include <string>
#include <vector>

namespace roofline {

// `from`: where the figures come from ("ncu", or a CSV's path).
std::string gpu_kernel_table_text(const std::vector<Point>& kernels, const std::string& from);

// The whole offload's point (its warnings are not in it: they go to standard error).
std::string offload_point_text(const OffloadPoint& offload);

} // namespace roofline
