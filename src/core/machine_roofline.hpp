// From a machine model (measured by `roofline bench`, or written by hand as a
// spec sheet) to the Roofline of one precision and thread count, with its
// named, ordered ceilings. Pure.
#pragma once

#include "core/machine_model.hpp"
#include "core/roofline.hpp"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

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
// Roofs at a working set of no known level ("custom", older models) are left out.
// Throws std::invalid_argument when the model has no compute roof for the selection.
Roofline roofline_from_machine(const MachineModel& model, const RooflineSelection& selection);

// The share of a memory pattern's nominal bytes that are stores: load 0, store 1, copy 1/2,
// triad and 2ld1st 1/3 (a non-temporal variant as its pattern); nullopt for another name.
std::optional<double> pattern_store_share(std::string_view pattern);

// A model with bandwidth figures but no compute roof (an interrupted run, a
// memory-only spec): per level the fastest pattern at the highest thread count;
// the compute roof is left at 0.
Roofline bandwidth_roofline(const MachineModel& model);

// What a command was asked for; empty: decided from the points and the model.
struct RooflineRequest {
    std::optional<std::string> precision;
    std::optional<int> threads;  // 0: the most threads measured
};

// The one policy every command (plot, report, measure, model) uses to choose
// the roofline that judges `points`:
//   precision: as asked, else "sp" when every point's FLOPs are single
//     precision (point_precision), else "dp"; unasked, a precision the model
//     lacks gives way to one it has;
//   threads: as asked, else the points' common thread count when the model has
//     a compute roof for it (a 1-thread run belongs under the 1-thread
//     roofline), else the most threads measured; a point's count is at most
//     the CPUs its run was allowed (judged_threads: 8 threads under taskset -c 0
//     are 1).
// Throws std::invalid_argument naming what the model does have ("this model has
// only memory roofs; measured thread counts: 1, 2") when nothing fits.
RooflineSelection select_roofline(const MachineModel& model, const std::vector<Point>& points,
                                  const RooflineRequest& request);

// When no thread count was asked for and the points ran with different
// counts (each judged_threads), select_roofline judges them all under the most threads measured:
// what that means for them, for a note. Likewise when they all ran with one
// count the model did not measure. "" otherwise.
std::string mixed_threads_note(const MachineModel& model, const std::vector<Point>& points,
                               const RooflineRequest& request, const RooflineSelection& selection);

// When no precision was asked for and the points hold both sp and dp work,
// select_roofline judges them all on one precision's roofline: what that means, for
// a note; "" otherwise.
std::string mixed_precision_note(const std::vector<Point>& points, const RooflineRequest& request,
                                 const RooflineSelection& selection);

// When no precision was asked for and every point's FLOPs are of one precision the model has no
// compute roof for (sp points, a dp-only model), select_roofline judges them on another's: what
// that means, for a warning; "" otherwise. `named`: the points' names, for a command whose
// other points are judged on their own precision (measure judges each point on its own): the
// text then says whose FLOPs they are ("the FLOPs of '(program)' are SP ...").
std::string missing_precision_note(const MachineModel& model, const std::vector<Point>& points,
                                   const RooflineRequest& request, const RooflineSelection& selection,
                                   const std::vector<std::string>& named = {});

// "sp" or "dp" when at least 99% of a point's FLOPs are of that precision (from
// its details: "flops_f32..." and "flops_f64..." as the engines write them; a stray
// double temporary does not make a float kernel mixed); nullopt when mixed, or
// when the point does not say.
std::optional<std::string> point_precision(const Point& p);

// A label for charts: CPU model, or the spec sheet's name.
std::string machine_label(const MachineModel& model);

} // namespace roofline
