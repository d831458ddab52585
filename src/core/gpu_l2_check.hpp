// The GPU's L2 figures checked against its DRAM figure of the same run. Past twice the L2's
// capacity a read must come from DRAM: the read kernel's curve there runs at the DRAM read
// roof. A curve that stays well above it has blocks reading lines another block fetched
// from DRAM moments before (reuse the kernel's order makes, not what the L2 holds), and the
// L2 roof of the same kernel counts that reuse too. Pure.
#pragma once

#include "core/gpu_model.hpp"

#include <string>
#include <vector>

namespace roofline {

// How far above the DRAM read roof a read of a set past twice the L2 may run: the L2 keeps
// part of a set larger than it (an H200, 60 MiB of L2, read 128 MiB at 1.04x its DRAM read
// with no chunk read twice at once, and at about 1.5x in 512 KiB chunks that blocks shared).
// roofline-gpubench chooses its L2 chunk size by the same bound (tools/gpubench).
inline constexpr double kPastL2Tolerance = 0.25;

// Removes the L2 read roof and the L2 curve of `gpu` when a point of that curve at twice the
// L2 or more runs above (1 + kPastL2Tolerance) x the DRAM read roof, and returns why (the
// point, the DRAM figure, the ratio). Nothing is judged without an L2 size, a DRAM read roof
// or such a point.
std::vector<std::string> refuse_gpu_l2_reuse(GpuModel& gpu);

} // namespace roofline
