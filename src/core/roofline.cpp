#include "core/roofline.hpp"

#include <fmt/core.h>

#include <algorithm>
#include <cmath>
#include <limits>

namespace roofline {

const char* view_name(View v) { return v == View::carm ? "carm" : "orm"; }

const char* region_name(Region r) {
    switch (r) {
    case Region::memory_only: return "memory-only";
    case Region::compute_only: return "compute-only";
    case Region::both: return "memory and compute";
    }
    return "?";
}

double attainable(double peak, double bandwidth, double intensity) { return std::min(peak, bandwidth * intensity); }
double ridge_point(double peak, double bandwidth) { return bandwidth > 0 ? peak / bandwidth : 0; }
double machine_balance(double peak, double bandwidth) { return peak > 0 ? bandwidth / peak : 0; }
double code_balance(double intensity) { return intensity > 0 ? 1.0 / intensity : 0; }

double performance(const Point& p) { return p.seconds > 0 ? p.work / p.seconds / 1e9 : 0; }

std::optional<double> intensity(const Point& p, const std::string& level) {
    auto it = p.bytes.find(level);
    if (it == p.bytes.end() || it->second <= 0) return std::nullopt;
    return p.work / it->second;
}

namespace {

const Roof* roof_of_level(const Roofline& r, const std::string& level) {
    for (const auto& b : r.bandwidth)
        if (b.level == level) return &b;
    return nullptr;
}

} // namespace

std::vector<std::string> bounding_levels(const Roofline& r, const Point& p, View view) {
    std::vector<std::string> levels;
    for (const auto& b : r.bandwidth) {
        if (view == View::orm && b.level != "DRAM") continue;
        if (intensity(p, b.level)) levels.push_back(b.level);
    }
    return levels;
}

double attainable(const Roofline& r, const Point& p, View view) {
    double best = r.compute.value;
    for (const auto& level : bounding_levels(r, p, view))
        best = std::min(best, roof_of_level(r, level)->value * *intensity(p, level));
    return best;
}

double ceiling_at(const Roofline& r, const Ceiling& c, double intensity_value) {
    if (c.kind == "compute") return c.value;
    return std::min(r.compute.value, c.value * intensity_value);
}

double coprocessor_attainable(double peak, double mem_bandwidth, double mem_intensity, double bus_bandwidth,
                              double bus_intensity) {
    return std::min({peak, mem_bandwidth * mem_intensity, bus_bandwidth * bus_intensity});
}

namespace {

std::string rate_unit(const Roofline& r) { return "G" + r.work_unit + "/s"; }

// The intensity range over which compute and bandwidth lines cross (Figure 2c):
// left of the lowest crossing only memory optimizations help, right of the
// highest only compute ones, in between both.
Region region_for(const Roofline& r, const std::string& level, double i) {
    double lowest_compute = r.compute.value;
    for (const auto& c : r.ceilings)
        if (c.kind == "compute") lowest_compute = std::min(lowest_compute, c.value);
    const Roof* top = roof_of_level(r, level);
    if (!top) return Region::compute_only;
    double lowest_bandwidth = top->value;
    for (const auto& c : r.ceilings)
        if (c.kind == "bandwidth" && c.level == level) lowest_bandwidth = std::min(lowest_bandwidth, c.value);
    const double start = ridge_point(lowest_compute, top->value);
    const double end = ridge_point(r.compute.value, lowest_bandwidth);
    if (i < start) return Region::memory_only;
    if (i > end) return Region::compute_only;
    return Region::both;
}

} // namespace

Analysis analyze(const Roofline& r, const Point& p, View view) {
    Analysis a;
    a.point = p.name;
    a.performance = performance(p);

    // The binding roof: the lowest of the compute roof and each level's roof x intensity.
    a.attainable = r.compute.value;
    a.binding_roof = r.compute.name;
    a.memory_bound = false;
    const auto levels = bounding_levels(r, p, view);
    for (const auto& level : levels) {
        const Roof* roof = roof_of_level(r, level);
        const double i = *intensity(p, level);
        const double limit = roof->value * i;
        if (limit < a.attainable) {
            a.attainable = limit;
            a.binding_roof = roof->name;
            a.binding_level = level;
            a.memory_bound = true;
        }
    }
    const std::string intensity_level = a.memory_bound ? a.binding_level : (levels.empty() ? "" : levels.back());
    if (!intensity_level.empty()) a.intensity = *intensity(p, intensity_level);
    a.intensity_level = intensity_level;
    a.efficiency = a.attainable > 0 ? a.performance / a.attainable : 0;
    a.region = intensity_level.empty() ? Region::compute_only : region_for(r, intensity_level, a.intensity);

    // Headroom to every roof at this point's intensities.
    auto add_headroom = [&](const std::string& name, double allowed) {
        a.headroom.push_back({name, allowed, a.performance > 0 ? allowed / a.performance : 0});
    };
    add_headroom(r.compute.name, r.compute.value);
    for (const auto& level : levels) {
        const Roof* roof = roof_of_level(r, level);
        add_headroom(roof->name, std::min(r.compute.value, roof->value * *intensity(p, level)));
    }
    std::sort(a.headroom.begin(), a.headroom.end(), [](auto& x, auto& y) { return x.attainable > y.attainable; });

    // Ceilings that apply to this point: compute ceilings, and bandwidth
    // ceilings of the levels that bound it, each at its value for this point's
    // intensity. One at or above the binding roof does not bound the point here.
    struct Placed {
        const Ceiling* c;
        double at;
    };
    std::vector<Placed> placed;
    for (const auto& c : r.ceilings) {
        double at = 0;
        if (c.kind == "compute") {
            at = c.value;
        } else if (std::find(levels.begin(), levels.end(), c.level) != levels.end()) {
            at = ceiling_at(r, c, *intensity(p, c.level));
        } else {
            continue;
        }
        if (at < a.attainable) placed.push_back({&c, at});
    }
    std::sort(placed.begin(), placed.end(), [](auto& x, auto& y) { return x.at < y.at; });
    for (const auto& pl : placed) {
        if (pl.at >= a.performance) {
            if (!a.upper) a.upper = *pl.c;
        } else {
            a.lower = *pl.c;
        }
    }
    if (a.upper) {
        a.limiting_metric = a.upper->kind == "compute"
                                ? fmt::format("{} ({})", rate_unit(r), a.upper->name)
                                : fmt::format("GB/s at {} ({})", a.upper->level, a.upper->name);
    } else {
        a.limiting_metric = a.memory_bound ? fmt::format("GB/s at {}", a.binding_level) : rate_unit(r);
    }

    // Next steps: break the ceilings above the point from the lowest up, then the roof.
    for (const auto& pl : placed) {
        if (pl.at < a.performance) continue;
        const std::string advice = pl.c->advice.empty() ? "lift the " + pl.c->name + " ceiling" : pl.c->advice;
        if (std::find(a.next_steps.begin(), a.next_steps.end(), advice) == a.next_steps.end())
            a.next_steps.push_back(advice);
    }
    if (a.memory_bound) {
        a.next_steps.push_back(fmt::format(
            "raise the intensity at {} (reuse data in registers and caches, block loops, fuse passes): "
            "the {} roof caps this point at {:.3g} {}",
            a.binding_level, a.binding_roof, a.attainable, rate_unit(r)));
    } else if (a.efficiency < 0.95) {
        a.next_steps.push_back(fmt::format("the point is compute-bound: the {} roof allows {:.3g} {}", r.compute.name,
                                           r.compute.value, rate_unit(r)));
    }
    return a;
}

} // namespace roofline
