// A machine as a file gives it: the model, plus for a hand-written spec sheet
// the ceilings it names in its own words. Pure.
#pragma once

#include "core/machine_model.hpp"
#include "core/machine_roofline.hpp"
#include "core/roofline.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace roofline {

struct NamedCeiling {
    Ceiling ceiling;
    std::string precision;  // compute ceilings: the precision they belong to ("dp" unless given)
};

struct MachineFile {
    MachineModel model;
    std::vector<NamedCeiling> named_ceilings;  // spec sheets only
    bool spec_sheet = false;
    int spec_threads = 0;  // the thread count the sheet's plain figures are for
    std::optional<std::int64_t> stored_id = std::nullopt;  // its id when read from the results store (points stored with it name it)
};

// The sheet's names and advice on a roofline built from its model: a generated
// ceiling of the same kind, level and value takes the written name, category and
// advice; written ceilings without a generated twin are added. Only when the
// roofline is for the sheet's own thread count (other counts have no written ceilings).
void apply_named_ceilings(Roofline& roofline, const MachineFile& machine);

// roofline_from_machine, then apply_named_ceilings.
Roofline roofline_from_machine_file(const MachineFile& machine, const RooflineSelection& selection);

} // namespace roofline
