#include "cli/gpu_selection.hpp"

#include "cli/usage_error.hpp"
#include "core/gpu_kernel_points.hpp"
#include "core/gpu_roofline.hpp"
#include "core/gpu_specs.hpp"
#include "core/offload_point.hpp"
#include "core/precision.hpp"
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

namespace {
// N of "N" or "N:PRECISION"; -1 when it is no device number.
int gpu_choice_index(const std::string& text) {
    const std::string number = text.substr(0, text.find(':'));
    try {
        std::size_t used = 0;
        const int index = std::stoi(number, &used);
        if (used == number.size() && index >= 0) return index;
    } catch (const std::exception&) {
    }
    return -1;
}
} // namespace

std::string gpu_choice_problem(const std::string& text) {
    if (gpu_choice_index(text) >= 0) return "";
    return fmt::format("--gpu expects N or N:PRECISION (got '{}')", terminal_text(text));
}

std::vector<std::string> gpu_limit_notes(const MachineModel& model, const std::string& text) {
    const int index = gpu_choice_index(text);
    const auto gpu = std::find_if(model.gpus.begin(), model.gpus.end(), [&](const GpuModel& g) { return g.index == index; });
    if (gpu == model.gpus.end()) return {};
    // Asked again of a copy: the roofs were refused as the model was read, so nothing more goes,
    // and the notes are the guard's own, whether or not the stored model kept them.
    GpuModel copy = *gpu;
    std::vector<std::string> notes;
    refuse_gpu_roofs_above_limit(copy, &notes);
    for (auto& note : notes) note = fmt::format("GPU {} ({}): {}", gpu->index, terminal_text(gpu->name), note);
    return notes;
}

Roofline selected_gpu_roofline(const MachineModel& model, const std::string& text,
                               const std::string& default_precision, const std::string& source,
                               const std::string& preferred) {
    const auto colon = text.find(':');
    const int index = gpu_choice_index(text);
    if (index < 0) throw UsageError(gpu_choice_problem(text));
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

std::vector<GpuJudgingPart> gpu_judging_parts(const MachineModel& model, const std::string& text,
                                              const std::string& default_precision, const std::string& source,
                                              const std::vector<Point>& points, bool precision_given) {
    const auto colon = text.find(':');
    // The roofline of the precision asked (or the default): UsageError when the GPU has none.
    const Roofline asked = selected_gpu_roofline(model, text, default_precision, source);
    const GpuModel& gpu = *std::find_if(model.gpus.begin(), model.gpus.end(),
                                        [&](const GpuModel& g) { return g.index == gpu_choice_index(text); });
    const auto no_tensor_roof = [&](const std::string& precision) {
        return fmt::format("their FLOPs ran on the {} tensor cores and {} has no {} tensor roof (bench --gpu "
                           "measures one; a roof the limit guard refused is left out), and no other roof bounds "
                           "that work",
                           precision, gpu_label(gpu), precision);
    };
    std::vector<GpuJudgingPart> parts;
    const auto part_for = [&](const std::string& why) -> GpuJudgingPart& {
        auto it = std::find_if(parts.begin(), parts.end(),
                               [&](const GpuJudgingPart& p) { return !p.roofline && p.not_judged == why; });
        if (it == parts.end()) it = parts.insert(parts.end(), GpuJudgingPart{std::nullopt, "", why, {}});
        return *it;
    };
    if (precision_given || colon != std::string::npos) {
        GpuJudgingPart on_asked{asked, fmt::format("kernels in {}", asked.precision), "", {}};
        const bool asked_has_tensor = has_gpu_tensor_roof(gpu, asked.precision);
        for (const auto& p : points) {
            const GpuWork own = point_device(p) == Device::gpu && !p.details.count("whole_offload")
                                    ? dominant_gpu_work({p}) : GpuWork{};
            const auto own_precision = gpu_precision(own.precision).value_or(own.precision);
            if (own.tensor && own_precision != asked.precision)
                part_for(fmt::format("their FLOPs ran on the {} tensor cores: only the {} tensor roof judges them "
                                     "(--gpu {}:{})", own_precision, own_precision, text.substr(0, colon), own_precision))
                    .points.push_back(p);
            else if (own.tensor && !asked_has_tensor)
                part_for(no_tensor_roof(own_precision)).points.push_back(p);
            else
                on_asked.points.push_back(p);
        }
        // A whole offload's bus roof is the one of its traffic's direction (core/offload_point).
        for (const auto& p : on_asked.points)
            if (p.details.count(kWholeOffload)) use_offload_bus_roof(*on_asked.roofline, gpu, p);
        if (!on_asked.points.empty() || parts.empty()) parts.insert(parts.begin(), std::move(on_asked));
        return parts;
    }
    // The whole offload with the highest roof its work could use on this GPU.
    for (const auto& group : group_by_gpu_precision(points, gpu)) {
        if (group.precision.empty()) {
            parts.push_back({asked, fmt::format("kernels in {}", asked.precision), "", group.points});
            continue;
        }
        try {
            Roofline own = gpu_roofline(gpu, group.precision, true, group.tensor);
            for (const auto& p : group.points)
                if (p.details.count(kWholeOffload)) use_offload_bus_roof(own, gpu, p);
            own.label += " " + own.precision;
            const std::string title =
                fmt::format("kernels in {}{}", own.precision, group.tensor ? " (tensor cores)" : "");
            parts.push_back({std::move(own), title, "", group.points});
        } catch (const std::invalid_argument&) {
            if (group.tensor) {
                auto& part = part_for(no_tensor_roof(group.precision));
                part.points.insert(part.points.end(), group.points.begin(), group.points.end());
                continue;
            }
            // FMA work of a precision the GPU has no roof of: the default precision's roofline, as
            // before (an FMA roof of another precision is a bound of the same units).
            auto on_asked = std::find_if(parts.begin(), parts.end(), [&](const GpuJudgingPart& p) {
                return p.roofline && p.roofline->label == asked.label && p.roofline->compute.name == asked.compute.name;
            });
            if (on_asked == parts.end())
                on_asked = parts.insert(parts.end(), {asked, fmt::format("kernels in {}", asked.precision), "", {}});
            on_asked->points.insert(on_asked->points.end(), group.points.begin(), group.points.end());
        }
    }
    // No point to judge, or none the GPU can: its roofline of the default precision is still drawn.
    if (std::none_of(parts.begin(), parts.end(), [](const GpuJudgingPart& p) { return p.roofline.has_value(); }))
        parts.push_back({asked, fmt::format("kernels in {}", asked.precision), "", {}});
    return parts;
}

} // namespace roofline::cli
