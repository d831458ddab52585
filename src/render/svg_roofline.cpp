#include "render/svg_roofline.hpp"

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

std::string upper(std::string text) {
    for (auto& ch : text) ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
    return text;
}

// A model with bandwidth figures but no compute roof (an interrupted run):
// the fastest pattern per level at the highest thread count.
Roofline bandwidth_only(const MachineModel& model) {
    Roofline r;
    r.label = machine_label(model);
    for (const auto& m : model.memory)
        if (m.gbs > 0) r.threads = std::max(r.threads, m.threads);
    std::vector<const MemoryRoof*> best;
    for (const auto& m : model.memory) {
        if (!(m.gbs > 0) || m.threads != r.threads || m.level.rfind("NUMA", 0) == 0) continue;
        auto same = std::find_if(best.begin(), best.end(), [&](auto* b) { return b->level == m.level; });
        if (same == best.end()) best.push_back(&m);
        else if (m.gbs > (*same)->gbs) *same = &m;
    }
    std::stable_sort(best.begin(), best.end(), [](auto* a, auto* b) { return level_before(a->level, b->level); });
    for (auto* m : best) r.bandwidth.push_back({fmt::format("{} {}", m->level, m->pattern), m->level, m->gbs});
    return r;
}

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

std::string runs_phrase(const MachineModel& model, int threads) {
    std::set<int> runs;
    for (const auto& c : model.compute)
        if (c.threads == threads && c.stats.runs > 0) runs.insert(c.stats.runs);
    for (const auto& m : model.memory)
        if (m.threads == threads && m.stats.runs > 0) runs.insert(m.stats.runs);
    if (runs.empty()) return "median of repeated runs";
    if (runs.size() == 1) return fmt::format("median of {} runs", *runs.begin());
    return fmt::format("median of {} to {} runs", *runs.begin(), *runs.rbegin());
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
        roofline = bandwidth_only(model);
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
        fmt::format("measured {}; bandwidth in nominal bytes; {}", timestamp, runs_phrase(model, threads)));
    std::string second = fmt::format("roofs at {}; ridge points on the {} peak", thread_text,
                                     have_compute ? upper(input.machines.front().precision) : std::string("compute"));
    if (!model.environment.tool_version.empty()) second += "; roofline " + model.environment.tool_version;
    if (model.partial) second += "; PARTIAL RUN (interrupted)";
    input.footer.push_back(std::move(second));
    return render_svg(input);
}

} // namespace roofline
