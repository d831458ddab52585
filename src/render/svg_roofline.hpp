// The measured roofline as an SVG chart: log-log axes, every roof labelled with
// its value, ridge points marked.
#pragma once

#include "core/machine_model.hpp"

#include <string>

namespace roofline {

std::string render_roofline_svg(const MachineModel& model);

} // namespace roofline
