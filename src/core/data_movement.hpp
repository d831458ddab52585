// Points that move data and do no work (a transpose, a copy, a gather, a sort's moves) have no
// place on a roofline of FLOP/s, yet their bytes at each memory level over their time can be set
// against that level's roof: how far each level is from it, and which is nearest (the likely
// bound). report gives them this instead of "not judged".
#pragma once

#include "core/llc_occupancy.hpp"
#include "core/rep_string_stores.hpp"
#include "core/roofline.hpp"

#include <optional>
#include <string>
#include <vector>

namespace roofline {

struct LevelBandwidth {
    std::string level;
    double bytes = 0;
    double gbs = 0;        // bytes / the point's seconds
    std::string roof;      // the level's roof, as the roofline's points are judged on
    double roof_gbs = 0;
    double share = 0;      // gbs / roof_gbs
    // Above the roof by more than its measured spread (at least 3%): a figure that cannot be true
    // (time that missed part of the traffic, bytes counted in another build, a roof measured low);
    // such a level is said, never called the bound.
    bool above_roof = false;
};

struct DataMovement {
    std::vector<LevelBandwidth> levels;  // in the roofline's level order
    // The level nearest its roof; empty when a level is above its roof (the point's figures
    // cannot all be true, so none is called the bound) or none has a roof.
    std::string nearest_level;
    // The levels the roofline has a roof for that are not among `levels` (the point has no bytes
    // there, or the view leaves them out: ORM judges DRAM alone), in the roofline's order. Being
    // far under the roofs of `levels` says nothing of these.
    std::vector<std::string> unjudged_levels;
    // Its data fills most of the simulated LLC and is re-read there: its DRAM bytes (and so its
    // DRAM bandwidth) are a lower bound (core/llc_occupancy; the figures unchanged).
    std::optional<LlcNearFull> llc_near_full;
    // Its write-allocate reads for REP STOS/MOVS stores (memset), which fast strings may skip: a
    // level above its roof says them first.
    std::optional<RepStringFill> rep_string_fill;
    bool above_roof() const;  // a level is above its roof
};

// The point's traffic at each level it has bytes at and the roofline has a roof for (`view` as
// report's: ORM only DRAM), a level counted as 0 bytes among them (0 GB/s: judged, unlike one
// with no count); nullopt when it has no time or no bytes at such a level.
std::optional<DataMovement> data_movement(const Roofline& r, const Point& p, View view);

} // namespace roofline
