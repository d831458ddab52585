// `roofline kernels`: the reference kernels' list (--list) and the sweep's table, a row per
// point as it is measured.
#pragma once

#include "core/reference_kernels.hpp"
#include "core/roofline.hpp"

#include <string>
#include <vector>

namespace roofline {

// Each kernel: its code, what n is, its FLOPs and bytes on paper, its parameters and note.
std::string reference_kernel_list_text(const std::vector<const ReferenceKernel*>& kernels);

// The sweep table's header line, and one point's row: working set, n, seconds per call,
// GFLOP/s, GB/s at `level` and the level ("at": where the point's data comes from and it is
// judged, core's data_level: the cache its working set lives in, DRAM when cold), the spread of
// its samples (slowest over fastest) and `check` ("ok", "ok, cached", "WRONG"). A point without
// bytes at `level` shows "-" for its GB/s.
std::string kernel_sweep_header();
std::string kernel_sweep_row(const std::string& kernel, const Point& p, const std::string& level,
                             const std::string& check);

} // namespace roofline
