// measure --engine ncu: the CUDA kernels' table (launches, time, GFLOP/s, FP64 and FP32
// shares, DRAM bandwidth and intensity), the kernels whose FLOPs are unknown, and the
// whole-offload point's lines (launches, copies, span, bus traffic, transfer intensity).
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
