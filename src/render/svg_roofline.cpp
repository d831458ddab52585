#include "render/svg_roofline.hpp"

#include "core/precision.hpp"

#include "core/level.hpp"
#include "core/machine_roofline.hpp"
#include "render/chart.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <set>
#include <stdexcept>

namespace roofline {
namespace {


// The overview chart keeps a few compute ceilings well apart, so it stays readable.
void thin_ceilings(Roofline& r) {
    constexpr std::size_t max_ceilings = 4;
    std::vector<double> drawn = {r.compute.value};
    std::vector<Ceiling> kept;
    for (const auto& c : r.ceilings) {
        if (c.kind != CeilingKind::compute || kept.size() >= max_ceilings) continue;
        const bool too_close = std::any_of(drawn.begin(), drawn.end(), [&](double v) {
            return v > 0 && std::fabs(std::log10(v / c.value)) < 0.04; // within ~10%
        });
        if (too_close) continue;
        kept.push_back(c);
        drawn.push_back(c.value);
    }
    r.ceilings = std::move(kept);
}

// The first clause of the model's statistic ("each roof is the 90th percentile
// of the best samples of its bursts"), short enough for a chart's footer.
std::string statistic_phrase(const std::string& statistic) {
    const auto cut = statistic.find_first_of("(;");
    std::string phrase = statistic.substr(0, cut);
    while (!phrase.empty() && phrase.back() == ' ') phrase.pop_back();
    return phrase;
}

} // namespace

// bench's chart: the top roof per precision at the highest thread count, each
// level's roof, ridge points on the DP peak, a few compute ceilings.
std::string render_roofline_svg(const MachineModel& model) {
    ChartInput input;
    input.show_bandwidth_ceilings = false;
    Roofline roofline;
    bool have_compute = false;
    for (const char* precision : {"dp", "sp"}) {
        try {
            roofline = roofline_from_machine(model, {precision, 0});
            have_compute = true;
            break;
        } catch (const std::invalid_argument&) {
            // this precision was not measured; try the next
        }
    }
    if (have_compute) {
        thin_ceilings(roofline);
        if (roofline.precision == "dp") {
            try {
                input.extra_peaks.push_back(roofline_from_machine(model, {"sp", roofline.threads}).compute);
            } catch (const std::invalid_argument&) {
                // no SP roof at this thread count
            }
        }
    } else {
        roofline = bandwidth_roofline(model);
    }
    const int threads = roofline.threads;
    const std::string cpu_name = model.cpu.model.empty() ? "unknown CPU" : model.cpu.model;
    const std::string thread_text = fmt::format("{} thread{}", threads, threads == 1 ? "" : "s");
    if (have_compute || !roofline.bandwidth.empty()) input.machines.push_back(std::move(roofline));

    input.title = fmt::format("Roofline: {}, {}", cpu_name, thread_text);
    input.subtitle = model.environment.hostname;
    if (model.environment.mode)
        input.subtitle += (input.subtitle.empty() ? "" : ", ") + std::string(bench_mode_name(*model.environment.mode)) + " mode";
    if (model.partial) input.banner = "PARTIAL RUN: some roofs are missing";
    const std::string timestamp = model.environment.timestamp.empty() ? "at an unknown time" : model.environment.timestamp;
    input.footer.push_back(
        fmt::format("measured {}; bandwidth: L1 in nominal bytes, below L1 in traffic with write-allocate reads (+WA); {}", timestamp,
                    model.environment.statistic.empty() ? std::string("statistic not recorded")
                                                        : statistic_phrase(model.environment.statistic)));
    std::string second = fmt::format("roofs at {}; ridge points on the {} peak", thread_text,
                                     have_compute ? precision_label(input.machines.front().precision) : std::string("compute"));
    if (!model.environment.tool_version.empty()) second += "; roofline " + model.environment.tool_version;
    if (model.partial) second += "; PARTIAL RUN (interrupted)";
    input.footer.push_back(std::move(second));
    return render_svg(input);
}

} // namespace roofline
