// From a machine model (measured by `roofline bench`, or written by hand as a
// spec sheet) to the Roofline of one precision and thread count, with its
// named, ordered ceilings. Pure.
#pragma once

#include "core/machine_model.hpp"
#include "core/roofline.hpp"

#include <string>

namespace roofline {

struct RooflineSelection {
    std::string precision = "dp";  // "dp" or "sp"
    int threads = 0;               // 0: the highest thread count in the model
};

// Top compute roof: the fastest compute entry of that precision and thread
// count. Bandwidth roofs: per level, the fastest pattern at that thread count.
// Ceilings (each only when the model has the figure, and below its roof):
//   compute: "FMA only" (fma mix without the idle ADD pipes), "no FMA" (mul+add),
//            "ADD or MUL only", "<N>-bit SIMD" for narrower widths,
//            "scalar (no SIMD)", "no ILP" (one dependent chain), "1 thread";
//   bandwidth: other patterns of each level ("<level> copy" ...), "<level> 1 thread",
//            remote NUMA ("NUMA0->1").
// Throws std::invalid_argument when the model has no compute roof for the selection.
Roofline roofline_from_machine(const MachineModel& model, const RooflineSelection& selection);

// A label for charts: CPU model, or the spec sheet's name.
std::string machine_label(const MachineModel& model);

} // namespace roofline
