// Advice in words: core returns what would lift a point (next steps, model
// lifts, the ceilings above it) as data; these phrase it.
#pragma once

#include "core/data_movement.hpp"
#include "core/kernel_spec.hpp"
#include "core/roofline.hpp"

#include <string>

namespace roofline {

// What lifts a point above `ceiling`: the spec sheet's own words when it has
// them, else the phrase for its category.
std::string ceiling_advice(const Roofline& r, const Ceiling& ceiling);

// One next step of an analysis, e.g. "raise the intensity at L2 (...): the
// L2 load roof caps this point at 41.2 GFLOP/s".
std::string next_step_text(const Roofline& r, const NextStep& step);

// A change the model says lifts a kernel, e.g. "non-temporal stores for a, b
// (no write-allocate reads)".
std::string lift_text(const KernelPrediction::Lift& lift, const std::string& work_unit);

// The metric that limits a point (the paper's Table 4): "GFLOP/s (no FMA)",
// "GB/s at L2 (L2 copy)", "GB/s at DRAM".
std::string limiting_metric_text(const Roofline& r, const Analysis& a);

// A point above its roof: "ABOVE ITS ROOF by 18.0% (...): a measurement error,
// not a result; likely: ..." (or, within the roof's spread, what that means).
std::string above_roof_text(const AboveRoof& above);
const char* above_roof_cause_text(AboveRoof::Cause cause);
// Why a level of a point with no work reads above its roof (DataMovement's levels): "time that
// missed part of the traffic, ..."; its REP STOS/MOVS write-allocate reads there first, when it has
// notable ones (core/rep_string_stores).
std::string above_roof_level_causes(const DataMovement& m, const std::string& level);

// Bytes at levels the machine has no roof for: "bytes at L4 bound nothing: the
// machine model has no L4 roof (judged by its other levels and compute)".
std::string unjudged_levels_text(const Analysis& a);

// Work shipped over a bus: "TI 10.0 FLOP per PCIe byte; a = TI / I(DRAM) = 0.250: the bus carries
// 4.00x the bytes the kernel moves from DRAM".
std::string throughput_text(const BusThroughput& t, const std::string& work_unit);

// The efficiency as people read it: "80.0%", "118.0% (above roof!)", "101.0% (within spread)".
std::string efficiency_text(const Analysis& a);

} // namespace roofline
