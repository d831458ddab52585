#include "cli/gpu_selection.hpp"

#include "cli/usage_error.hpp"
#include "core/gpu_roofline.hpp"
#include "render/text_escape.hpp"

#include <fmt/core.h>

#include <algorithm>
#include <stdexcept>

namespace roofline::cli {

void require_points_on_their_device(const std::vector<Point>& points, Device roofline) {
    const auto wrong = first_on_wrong_device(points, roofline);
    if (!wrong) return;
    const Point& p = points[wrong->index];
    if (wrong->measured_on == Device::gpu)
        throw UsageError(fmt::format(
            "point '{}' is a CUDA kernel (measured by ncu): judge it against a GPU's roofline with --gpu N "
            "(a machine model with a gpus section, from 'roofline bench --gpu'), not a CPU's",
            terminal_text(p.name)));
    throw UsageError(fmt::format("point '{}' was measured on the CPU ({}): judge it against the CPU's roofline "
                                 "(without --gpu), not a GPU's",
                                 terminal_text(p.name), terminal_text(p.source.name())));
}

Roofline selected_gpu_roofline(const MachineModel& model, const std::string& text,
                               const std::string& default_precision, const std::string& source,
                               const std::string& preferred) {
    const auto colon = text.find(':');
    const std::string number = text.substr(0, colon);
    int index = -1;
    try {
        std::size_t used = 0;
        index = std::stoi(number, &used);
        if (used != number.size()) index = -1;
    } catch (const std::exception&) {
    }
    if (index < 0) throw UsageError(fmt::format("--gpu expects N or N:PRECISION (got '{}')", terminal_text(text)));
    const std::string precision = colon != std::string::npos ? text.substr(colon + 1) : default_precision;
    const auto& gpus = model.gpus;
    const auto gpu = std::find_if(gpus.begin(), gpus.end(), [&](const GpuModel& g) { return g.index == index; });
    if (gpu == gpus.end())
        throw std::runtime_error(fmt::format("{} has no GPU {} ({}; 'roofline bench --gpu' measures one)", source, index,
                                             gpus.empty() ? "it has none" : fmt::format("it has {}", gpus.size())));
    // The kernels' own precision when the text names none and the GPU has a roof of it.
    if (colon == std::string::npos && !preferred.empty() && preferred != precision) {
        try {
            Roofline roofline = gpu_roofline(*gpu, preferred);
            roofline.label += " " + roofline.precision;
            return roofline;
        } catch (const std::invalid_argument&) {
            // no roof of the kernels' precision: the default one judges them
        }
    }
    try {
        Roofline roofline = gpu_roofline(*gpu, precision);
        roofline.label += " " + roofline.precision;
        return roofline;
    } catch (const std::invalid_argument& e) {
        throw UsageError(fmt::format("--gpu {}: {}", terminal_text(text), e.what()));
    }
}

} // namespace roofline::cli
