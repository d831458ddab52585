#include "render/chart_layout.hpp"

#include "core/precision.hpp"

#include "core/level.hpp"
#include "render/advice_text.hpp"
#include "render/number_format.hpp"
#include "render/short_names.hpp"
#include "render/timing_text.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <limits>
#include <map>
#include <numbers>
#include <optional>
#include <set>
#include <tuple>
#include <unordered_map>

namespace roofline {
namespace {

// ---------------------------------------------------------------- colours

constexpr std::string_view single_compute_colour = "#1f3a93";
constexpr std::string_view ceiling_grey = "#8c8c8c";
constexpr std::array<std::string_view, 7> level_colours = {"#1b9e77", "#7570b3", "#e7298a", "#a6761d",
                                                            "#66a61e", "#e6ab02", "#666666"};
// Ten machines in ten clearly different hues, dark enough for thin lines on white.
constexpr std::array<std::string_view, 10> machine_colours = {"#1f3a93", "#c0392b", "#138d75", "#7d3c98",
                                                              "#d35400", "#2e86c1", "#b7950b", "#cb4f8e",
                                                              "#1e8449", "#5d6d7e"};
constexpr std::array<std::string_view, 10> point_colours = {"#d62728", "#2ca02c", "#9467bd", "#ff7f0e",
                                                            "#8c564b", "#e377c2", "#17becf", "#bcbd22",
                                                            "#1f77b4", "#7f7f7f"};
constexpr std::string_view unnamed_points_colour = "#444444";
constexpr std::string_view intensity_line_colour = "#6f6f6f";

std::string extra_peak_colour(const Roof& roof) {
    if (roof.name.rfind("SP", 0) == 0) return "#d95f02";
    return "#555555";
}

// ---------------------------------------------------------------- small helpers

// A chart spans at most a few dozen decades; values beyond 1e-30..1e30 (which
// validated inputs cannot give, but arithmetic on extreme ones can) would put
// an axis at 1e-308 and overflow the integer decades, so they are not drawn.
constexpr double smallest_drawn = 1e-30, largest_drawn = 1e30;
bool usable(double value) { return std::isfinite(value) && value >= smallest_drawn && value <= largest_drawn; }

// Point labels are tried for at most this many points per label allowed
// (Canvas::max_point_labels): 2,000 for SVG and HTML.
constexpr std::size_t point_label_tries_per_label = 5;
// Points whose name had no room get a number and a legend row, up to this many (the
// legend grows the canvas a row per few of them).
constexpr std::size_t max_numbered_points = 40;

// Characters, not bytes: UTF-8 continuation bytes take no width.
double text_units(std::string_view text) {
    return static_cast<double>(std::count_if(text.begin(), text.end(), [](char c) {
        return (static_cast<unsigned char>(c) & 0xC0) != 0x80;
    }));
}

// ---------------------------------------------------------------- label space

// An oriented rectangle on the canvas.
struct Box {
    double cx, cy, half_w, half_h, angle; // angle in radians
    bool thin = false;                    // a drawn line: labels may come close, not cross
    double extent_x() const { return std::fabs(half_w * std::cos(angle)) + std::fabs(half_h * std::sin(angle)); }
    double extent_y() const { return std::fabs(half_w * std::sin(angle)) + std::fabs(half_h * std::cos(angle)); }
};

// Separating-axis test for two oriented rectangles, `pad` apart at least.
bool overlap(const Box& a, const Box& b, double pad) {
    const std::array<double, 2> angles = {a.angle, b.angle};
    for (double angle : angles) {
        for (int axis = 0; axis < 2; ++axis) {
            const double ux = axis == 0 ? std::cos(angle) : -std::sin(angle);
            const double uy = axis == 0 ? std::sin(angle) : std::cos(angle);
            auto radius = [&](const Box& box) {
                const double c = std::cos(box.angle), s = std::sin(box.angle);
                return box.half_w * std::fabs(c * ux + s * uy) + box.half_h * std::fabs(-s * ux + c * uy);
            };
            const double distance = std::fabs((b.cx - a.cx) * ux + (b.cy - a.cy) * uy);
            if (distance >= radius(a) + radius(b) + (a.thin || b.thin ? 0 : pad)) return false;
        }
    }
    return true;
}

// Boxes already taken on the canvas, in a grid of cells so that thousands of
// point labels and markers are checked quickly.
class LabelSpace {
public:
    explicit LabelSpace(double cell) : cell_(cell) {}

    // `over_lines`: drawn lines do not count (the text gets a halo instead).
    bool free(const Box& box, double pad, bool over_lines = false) const {
        bool clear = true;
        visit_cells(box, pad, [&](long long key) {
            if (!clear) return;
            auto it = cells_.find(key);
            if (it == cells_.end()) return;
            auto blocked = [&](const std::vector<std::size_t>& indices) {
                return std::any_of(indices.begin(), indices.end(),
                                   [&](std::size_t index) { return overlap(box, boxes_[index], pad); });
            };
            // Lines apart from the rest: with them ignored they cost nothing.
            if (blocked(it->second.solid) || (!over_lines && blocked(it->second.thin))) clear = false;
        });
        return clear;
    }

    void take(const Box& box) {
        const std::size_t index = boxes_.size();
        boxes_.push_back(box);
        if (!box.thin) {
            visit_cells(box, 0, [&](long long key) { cells_[key].solid.push_back(index); });
            return;
        }
        // A long slanted line's bounding rectangle covers cells it never crosses,
        // and a thousand crossing lines (series of many points) would then make
        // every label check scan them all. Register it piece by piece instead:
        // the cells of each piece's bounding rectangle hold the whole line.
        const double length = 2 * box.half_w;
        const auto pieces = static_cast<std::size_t>(std::max(1.0, std::ceil(length / cell_)));
        const double piece_half = box.half_w / static_cast<double>(pieces);
        const double c = std::cos(box.angle), s = std::sin(box.angle);
        keys_.clear();
        for (std::size_t i = 0; i < pieces; ++i) {
            const double along = -box.half_w + (2 * static_cast<double>(i) + 1) * piece_half;
            // A hair longer than its share, so rounding leaves no gap between pieces.
            Box piece{box.cx + along * c, box.cy + along * s, piece_half * (1 + 1e-9) + 1e-9, box.half_h, box.angle};
            visit_cells(piece, 0, [&](long long key) { keys_.push_back(key); });
        }
        std::sort(keys_.begin(), keys_.end());
        keys_.erase(std::unique(keys_.begin(), keys_.end()), keys_.end());
        for (long long key : keys_) cells_[key].thin.push_back(index);
    }

private:
    template <class Visit>
    void visit_cells(const Box& box, double pad, Visit visit) const {
        const double ex = box.extent_x() + pad, ey = box.extent_y() + pad;
        const long long x0 = static_cast<long long>(std::floor((box.cx - ex) / cell_));
        const long long x1 = static_cast<long long>(std::floor((box.cx + ex) / cell_));
        const long long y0 = static_cast<long long>(std::floor((box.cy - ey) / cell_));
        const long long y1 = static_cast<long long>(std::floor((box.cy + ey) / cell_));
        for (long long gx = x0; gx <= x1; ++gx)
            for (long long gy = y0; gy <= y1; ++gy) visit(gx * 1000003LL + gy);
    }

    struct Cell {
        std::vector<std::size_t> solid; // labels and markers
        std::vector<std::size_t> thin;  // drawn lines
    };

    double cell_;
    std::vector<Box> boxes_;
    std::unordered_map<long long, Cell> cells_;
    std::vector<long long> keys_; // scratch for take()
};

// ---------------------------------------------------------------- the builder

class LayoutBuilder {
public:
    LayoutBuilder(const ChartInput& input, const Canvas& canvas)
        : in_(input), space_(std::max(canvas.label_height * 4, 1.0)) {
        out_.canvas = canvas;
        out_.view = input.view;
        out_.multi_machine = input.machines.size() > 1;
        if (!input.machines.empty() && !input.machines.front().work_unit.empty())
            out_.work_unit = input.machines.front().work_unit;
    }

    ChartLayout build() {
        style_machines();
        collect_points();
        choose_axes();
        add_regions();
        add_lines();
        add_ridges();
        add_markers();
        add_line_obstacles();
        map_terminal_lines();
        place_region_labels();
        place_line_labels();
        place_ridge_labels();
        place_point_labels();
        add_legend();
        add_titles();
        return std::move(out_);
    }

private:
    const ChartInput& in_;
    ChartLayout out_;
    LabelSpace space_;

    struct PendingPoint {
        std::size_t input;
        double performance;
        std::vector<std::pair<std::string, double>> levels; // level, intensity (level order)
    };
    std::vector<PendingPoint> pending_;

    const Canvas& canvas() const { return out_.canvas; }

    // ------------------------------------------------------------ machines

    std::string line_text(std::size_t machine, const std::string& name, double value, const std::string& unit) const {
        const std::string prefix = out_.multi_machine ? fmt::format("[{}] ", machine + 1) : "";
        return fmt::format("{}{} {} {}", prefix, name, format_number(value), unit);
    }

    void style_machines() {
        for (std::size_t m = 0; m < in_.machines.size(); ++m) {
            const auto& r = in_.machines[m];
            const std::string label = r.label.empty() ? fmt::format("machine {}", m + 1) : r.label;
            out_.machines.push_back({label, std::string(machine_colours[m % machine_colours.size()])});
        }
    }

    std::string roof_colour(std::size_t machine) const {
        return out_.multi_machine ? out_.machines[machine].colour : std::string(single_compute_colour);
    }
    std::string level_colour(std::size_t machine, std::size_t level_index) const {
        if (out_.multi_machine) return out_.machines[machine].colour;
        return std::string(level_colours[std::min(level_index, level_colours.size() - 1)]);
    }
    // ORM is the DRAM model: other levels' roofs are not drawn (when DRAM is there).
    bool shows_level(std::size_t machine, const std::string& level) const {
        if (in_.view != View::orm) return true;
        const auto& bandwidth = in_.machines[machine].bandwidth;
        const bool has_dram = std::any_of(bandwidth.begin(), bandwidth.end(), [](auto& b) { return b.level == "DRAM"; });
        return !has_dram || level == "DRAM";
    }
    std::size_t level_index(const Roofline& r, const std::string& level) const {
        for (std::size_t i = 0; i < r.bandwidth.size(); ++i)
            if (r.bandwidth[i].level == level) return i;
        return level_colours.size() - 1;
    }

    // Where diagonals end: the machine's compute roof, or (for machines[0]) its
    // highest extra peak; 0 when the machine has no compute roof.
    double top_peak(std::size_t machine) const {
        double peak = usable(in_.machines[machine].compute.value) ? in_.machines[machine].compute.value : 0;
        if (machine == 0)
            for (const auto& extra : in_.extra_peaks)
                if (usable(extra.value)) peak = std::max(peak, extra.value);
        return peak;
    }
    double highest_bandwidth(std::size_t machine) const {
        double best = 0;
        for (const auto& b : in_.machines[machine].bandwidth)
            if (usable(b.value) && shows_level(machine, b.level)) best = std::max(best, b.value);
        return best;
    }

    // ------------------------------------------------------------ points

    void collect_points() {
        for (const auto& note : in_.notes) out_.notes.push_back(note);
        if (auto timing = chart_timing_note(in_.points); !timing.empty()) out_.notes.push_back(std::move(timing));
        std::size_t no_performance = 0, no_level = 0, out_of_range = 0;
        for (std::size_t i = 0; i < in_.points.size(); ++i) {
            const Point& p = in_.points[i];
            const double perf = performance(p);
            if (!usable(perf)) {
                ++(std::isfinite(perf) && perf > 0 ? out_of_range : no_performance);
                continue;
            }
            PendingPoint pending{i, perf, {}};
            if (in_.view == View::orm) {
                if (auto dram = intensity(p, "DRAM"); dram && usable(*dram)) pending.levels.emplace_back("DRAM", *dram);
            } else {
                std::vector<std::string> levels;
                for (const auto& [level, bytes] : p.bytes) levels.push_back(level);
                std::stable_sort(levels.begin(), levels.end(),
                                 [](auto& a, auto& b) { return level_before(a, b); });
                for (const auto& level : levels)
                    if (auto value = intensity(p, level); value && usable(*value)) pending.levels.emplace_back(level, *value);
            }
            if (pending.levels.empty()) {
                ++no_level;
                continue;
            }
            pending_.push_back(std::move(pending));
        }
        if (no_performance > 0)
            out_.notes.push_back(fmt::format("{} point{} without work or time left out", no_performance,
                                             no_performance == 1 ? "" : "s"));
        if (out_of_range > 0)
            out_.notes.push_back(fmt::format("{} point{} with performance outside {:g}..{:g} left out", out_of_range,
                                             out_of_range == 1 ? "" : "s", smallest_drawn, largest_drawn));
        if (no_level > 0)
            out_.notes.push_back(fmt::format("{} point{} without {} bytes left out", no_level, no_level == 1 ? "" : "s",
                                             in_.view == View::orm ? "DRAM" : "any"));
    }

    // ------------------------------------------------------------ axes

    void choose_axes() {
        double x_low = 1.0 / 64, x_high = 64;
        double y_high = 0;
        std::vector<double> y_lows;
        for (std::size_t m = 0; m < in_.machines.size(); ++m) {
            const double peak = in_.machines[m].compute.value;
            const double top = top_peak(m);
            for (const auto& b : in_.machines[m].bandwidth) {
                if (!usable(b.value) || !shows_level(m, b.level)) continue;
                if (usable(peak)) x_low = std::min(x_low, peak / b.value / 4);
                if (top > 0) x_high = std::max(x_high, top / b.value * 4);
            }
            if (top > 0) {
                y_high = std::max(y_high, top * 2);
                y_lows.push_back(top / 10);
            }
            if (in_.show_ceilings)
                for (const auto& c : in_.machines[m].ceilings)
                    if (c.kind == CeilingKind::compute && usable(c.value)) y_lows.push_back(c.value / 2);
        }
        for (const auto& p : pending_) {
            for (const auto& [level, value] : p.levels) {
                x_low = std::min(x_low, value / 2);
                x_high = std::max(x_high, value * 2);
            }
            y_high = std::max(y_high, p.performance * 2);
            y_lows.push_back(p.performance / 2);
        }
        for (double line : in_.intensity_lines) {
            if (!usable(line)) continue;
            x_low = std::min(x_low, line / 2);
            x_high = std::max(x_high, line * 2);
        }
        out_.x.low_decade = static_cast<int>(std::floor(std::log10(x_low)));
        out_.x.high_decade = static_cast<int>(std::ceil(std::log10(x_high)));
        out_.x.high_decade = std::min(out_.x.high_decade, out_.x.low_decade + 12);

        // Low enough to show every bandwidth roof from the left edge.
        for (std::size_t m = 0; m < in_.machines.size(); ++m) {
            for (const auto& b : in_.machines[m].bandwidth) {
                if (!usable(b.value) || !shows_level(m, b.level)) continue;
                y_lows.push_back(b.value * out_.x.min());
                if (top_peak(m) <= 0) y_high = std::max(y_high, b.value * out_.x.max());
            }
        }
        if (y_lows.empty() || !(y_high > 0)) {
            out_.y.low_decade = 0;
            out_.y.high_decade = 3;
        } else {
            const double y_low = *std::min_element(y_lows.begin(), y_lows.end());
            out_.y.high_decade = static_cast<int>(std::ceil(std::log10(y_high)));
            out_.y.low_decade = static_cast<int>(std::floor(std::log10(y_low)));
            // Points far below keep the axis; roofs alone get at most 8 decades.
            const bool point_far_below = std::any_of(pending_.begin(), pending_.end(), [&](auto& p) {
                return std::log10(p.performance) < out_.y.high_decade - 8;
            });
            out_.y.low_decade = std::max(out_.y.low_decade, out_.y.high_decade - (point_far_below ? 12 : 8));
            if (out_.y.low_decade >= out_.y.high_decade) out_.y.low_decade = out_.y.high_decade - 1;
        }
        fill_ticks(out_.x);
        fill_ticks(out_.y);
        out_.x.title = in_.view == View::orm ? fmt::format("Operational intensity [{}/DRAM byte]", out_.work_unit)
                                             : fmt::format("Arithmetic intensity [{}/byte]", out_.work_unit);
        out_.y.title = fmt::format("Performance [{}]", rate_unit(out_.work_unit));
    }

    static void fill_ticks(Axis& axis) {
        for (int decade = axis.low_decade; decade <= axis.high_decade; ++decade) {
            axis.decades.push_back({std::pow(10.0, decade), format_decade(decade)});
            if (decade == axis.high_decade) break;
            for (int step = 2; step <= 9; ++step) axis.minor.push_back(step * std::pow(10.0, decade));
        }
    }

    // ------------------------------------------------------------ lines

    // Liang-Barsky in log-log space: the part of a segment inside the axes.
    bool clip(ChartLine& line) const {
        if (!usable(line.x1) || !usable(line.x2) || !usable(line.y1) || !usable(line.y2)) return false;
        const double lx1 = std::log10(line.x1), ly1 = std::log10(line.y1);
        const double dx = std::log10(line.x2) - lx1, dy = std::log10(line.y2) - ly1;
        double t0 = 0, t1 = 1;
        const std::array<std::pair<double, double>, 4> edges = {{
            {-dx, lx1 - out_.x.low_decade},
            {dx, out_.x.high_decade - lx1},
            {-dy, ly1 - out_.y.low_decade},
            {dy, out_.y.high_decade - ly1},
        }};
        for (const auto& [p, q] : edges) {
            if (p == 0) {
                if (q < 0) return false;
                continue;
            }
            const double t = q / p;
            if (p < 0) t0 = std::max(t0, t);
            else t1 = std::min(t1, t);
        }
        if (t0 >= t1) return false;
        const double nx1 = lx1 + t0 * dx, ny1 = ly1 + t0 * dy, nx2 = lx1 + t1 * dx, ny2 = ly1 + t1 * dy;
        line.x1 = std::pow(10.0, nx1);
        line.y1 = std::pow(10.0, ny1);
        line.x2 = std::pow(10.0, nx2);
        line.y2 = std::pow(10.0, ny2);
        // A sliver under a pixel is not worth drawing.
        return std::hypot(out_.px(line.x2) - out_.px(line.x1), out_.py(line.y2) - out_.py(line.y1)) > 0.5;
    }

    void push_line(ChartLine line) {
        if (clip(line)) out_.lines.push_back(std::move(line));
    }

    void add_regions() {
        if (!in_.shade_regions || in_.machines.empty()) return;
        const Roofline& r = in_.machines.front();
        if (!usable(r.compute.value)) return;
        // ORM: DRAM; CARM: the slowest level, where the regions matter most.
        const Roof* level_roof = nullptr;
        for (const auto& b : r.bandwidth) {
            if (!usable(b.value)) continue;
            if (in_.view == View::orm ? b.level == "DRAM" : true) level_roof = &b;
        }
        if (!level_roof) return;
        // As in analyze(): left of the lowest crossing only memory optimizations
        // help, right of the highest only compute ones, in between both.
        const auto bounds = region_bounds(r, level_roof->level);
        if (!bounds) return;
        const double start = bounds->start, end = bounds->end;
        auto add = [&](Region region, std::string name, double from, double to, std::string_view colour) {
            from = std::max(from, out_.x.min());
            to = std::min(to, out_.x.max());
            if (to > from) out_.regions.push_back({region, std::move(name), from, to, std::string(colour), false, {}});
        };
        add(Region::memory_only, fmt::format("memory optimizations ({})", level_roof->level), out_.x.min(), start, "#e3eef9");
        add(Region::both, "memory and compute optimizations", start, end, "#efe7f3");
        add(Region::compute_only, "compute optimizations", end, out_.x.max(), "#fdf0dd");
    }

    void add_lines() {
        const std::string unit = rate_unit(out_.work_unit);
        for (double intensity_value : in_.intensity_lines) {
            if (!usable(intensity_value)) continue;
            ChartLine line;
            line.kind = LineKind::intensity_line;
            line.machine = 0;
            line.name = fmt::format("I = {}", fmt::format("{:.3g}", intensity_value));
            line.value = intensity_value;
            line.unit = out_.work_unit + "/byte";
            line.text = fmt::format("I = {:.3g}", intensity_value);
            line.colour = std::string(intensity_line_colour);
            line.x1 = line.x2 = intensity_value;
            line.y1 = out_.y.min();
            line.y2 = out_.y.max();
            push_line(std::move(line));
        }
        // Ceilings first, so the roofs are drawn over them.
        if (in_.show_ceilings) {
            for (std::size_t m = 0; m < in_.machines.size(); ++m) {
                const Roofline& r = in_.machines[m];
                const double peak = usable(r.compute.value) ? r.compute.value : 0;
                const double fastest = highest_bandwidth(m);
                for (const auto& c : r.ceilings) {
                    if (!usable(c.value)) continue;
                    ChartLine line;
                    line.machine = m;
                    line.name = c.name;
                    line.level = c.level;
                    line.category = c.category;
                    line.advice = ceiling_advice(r, c);
                    line.value = c.value;
                    if (c.kind == CeilingKind::compute) {
                        line.kind = LineKind::compute_ceiling;
                        line.unit = unit;
                        line.colour = out_.multi_machine ? out_.machines[m].colour : std::string(ceiling_grey);
                        line.x1 = fastest > 0 ? c.value / fastest : out_.x.min();
                        line.y1 = line.y2 = c.value;
                        line.x2 = out_.x.max();
                    } else {
                        if (!in_.show_bandwidth_ceilings || !shows_level(m, c.level)) continue;
                        line.kind = LineKind::bandwidth_ceiling;
                        line.unit = "GB/s";
                        line.colour = level_colour(m, level_index(r, c.level));
                        line.x1 = out_.x.min();
                        line.y1 = c.value * line.x1;
                        line.x2 = peak > 0 ? peak / c.value : out_.x.max();
                        line.y2 = c.value * line.x2;
                    }
                    line.text = line_text(m, c.name, c.value, line.unit);
                    push_line(std::move(line));
                }
            }
        }
        for (std::size_t m = 0; m < in_.machines.size(); ++m) {
            const Roofline& r = in_.machines[m];
            const double fastest = highest_bandwidth(m);
            auto add_compute = [&](const Roof& roof, std::string colour) {
                if (!usable(roof.value)) return;
                ChartLine line;
                line.kind = LineKind::compute_roof;
                line.machine = m;
                line.name = roof.name;
                line.value = roof.value;
                line.unit = unit;
                line.text = line_text(m, roof.name, roof.value, unit);
                line.colour = std::move(colour);
                line.x1 = fastest > 0 ? roof.value / fastest : out_.x.min();
                line.y1 = line.y2 = roof.value;
                line.x2 = out_.x.max();
                push_line(std::move(line));
            };
            add_compute(r.compute, roof_colour(m));
            if (m == 0)
                for (const auto& extra : in_.extra_peaks)
                    add_compute(extra, out_.multi_machine ? roof_colour(0) : extra_peak_colour(extra));
            const double top = top_peak(m);
            for (std::size_t b = 0; b < r.bandwidth.size(); ++b) {
                const Roof& roof = r.bandwidth[b];
                if (!usable(roof.value) || !shows_level(m, roof.level)) continue;
                ChartLine line;
                line.kind = LineKind::bandwidth_roof;
                line.machine = m;
                line.name = roof.name;
                line.level = roof.level;
                line.value = roof.value;
                line.unit = "GB/s";
                line.text = line_text(m, roof.name, roof.value, "GB/s");
                line.colour = level_colour(m, b);
                line.x1 = out_.x.min();
                line.y1 = roof.value * line.x1;
                line.x2 = top > 0 ? top / roof.value : out_.x.max();
                line.y2 = roof.value * line.x2;
                push_line(std::move(line));
            }
        }
    }

    void add_ridges() {
        for (std::size_t m = 0; m < in_.machines.size(); ++m) {
            const Roofline& r = in_.machines[m];
            if (!usable(r.compute.value)) continue;
            for (std::size_t b = 0; b < r.bandwidth.size(); ++b) {
                if (!usable(r.bandwidth[b].value) || !shows_level(m, r.bandwidth[b].level)) continue;
                const double ridge = ridge_point(r.compute.value, r.bandwidth[b].value);
                if (!out_.x.contains(ridge) || !out_.y.contains(r.compute.value)) continue;
                out_.ridges.push_back({m, r.bandwidth[b].level, ridge, r.compute.value, level_colour(m, b), false, {}});
            }
        }
    }

    // ------------------------------------------------------------ markers and series

    void add_markers() {
        std::map<std::string, int> series_index;
        std::size_t unnamed = 0;
        for (const auto& p : pending_)
            if (in_.points[p.input].series.empty()) ++unnamed;
        std::size_t unnamed_seen = 0;
        std::size_t outside = 0;
        for (const auto& pending : pending_) {
            const Point& p = in_.points[pending.input];
            PlottedPoint plotted;
            plotted.input = pending.input;
            plotted.text = p.label.empty() ? p.name : p.label;
            plotted.performance = pending.performance;
            if (!p.series.empty()) {
                auto [it, inserted] = series_index.try_emplace(p.series, static_cast<int>(out_.series.size()));
                if (inserted)
                    out_.series.push_back({p.series, std::string(point_colours[out_.series.size() % point_colours.size()]), {}});
                plotted.series = it->second;
                plotted.colour = out_.series[it->second].colour;
            }
            const std::size_t point_index = out_.points.size();
            bool first = true;
            for (const auto& [level, value] : pending.levels) {
                if (!out_.x.contains(value) || !out_.y.contains(pending.performance)) {
                    ++outside;
                    continue;
                }
                plotted.markers.push_back(out_.markers.size());
                out_.markers.push_back({point_index, level, value, pending.performance,
                                        in_.view == View::orm ? MarkerShape::circle : shape_for_level(level), first});
                first = false;
            }
            if (plotted.markers.empty()) continue;
            if (plotted.series >= 0) {
                auto& series = out_.series[plotted.series];
                if (series.points.empty()) series.from_first = p.details.contains("loop_function_loops");
                series.points.push_back(point_index);
            }
            out_.points.push_back(std::move(plotted));
        }
        // Points without a series: a colour each while few, one shared colour when many.
        const std::size_t first_free_colour = out_.series.size();
        for (auto& plotted : out_.points) {
            if (plotted.series >= 0) continue;
            plotted.colour = unnamed <= 8 ? std::string(point_colours[(first_free_colour + unnamed_seen++) % point_colours.size()])
                                          : std::string(unnamed_points_colour);
        }
        shorten_names();
        if (outside > 0)
            out_.notes.push_back(fmt::format("{} marker{} outside the axes left out", outside, outside == 1 ? "" : "s"));
        // Markers are obstacles for every label placed later (on a terminal: the cell its
        // letter is written to).
        for (const auto& marker : out_.markers) {
            const double r = canvas().marker_radius, x = out_.px(marker.intensity), y = out_.py(marker.performance);
            if (canvas().rotated_labels) space_.take({x, y, r, r, 0});
            else space_.take({std::floor(x) + 0.5, std::floor(y) + 0.5, 0.5, 0.5, 0});
        }
        // So are the ridge marks on a terminal ('+' cells a label would hide); the SVG keeps
        // its roof labels clear of them by ending them short of the ridge.
        if (!canvas().rotated_labels)
            for (const auto& ridge : out_.ridges) {
                const double x = out_.px(ridge.intensity), y = out_.py(ridge.performance);
                // Small: a label may sit in the next cell (above its roof), not on this one.
                space_.take({std::floor(x) + 0.5, std::floor(y) + 0.5, 0.2, 0.2, 0});
            }
    }

    // Labels and the series' names short enough to read beside a marker or in a key, each
    // still told apart from the others of its kind (the HTML page's data keeps the whole names).
    void shorten_names() {
        std::vector<std::string> texts, series;
        for (const auto& p : out_.points) texts.push_back(p.text);
        for (const auto& s : out_.series) series.push_back(s.name);
        texts = short_names(texts, canvas().max_label_chars);
        series = short_names(series, canvas().max_label_chars);
        for (std::size_t i = 0; i < texts.size(); ++i) out_.points[i].text = std::move(texts[i]);
        for (std::size_t i = 0; i < series.size(); ++i) out_.series[i].name = std::move(series[i]);
    }

    // ------------------------------------------------------------ labels

    // Drawn lines are obstacles too: a label may sit beside a line, not across it.
    // On a character grid the obstacle is every cell the line passes through.
    void add_segment_obstacle(double x1, double y1, double x2, double y2) {
        if (canvas().rotated_labels) {
            const double length = std::hypot(x2 - x1, y2 - y1);
            if (length < 0.5) return;
            Box box{(x1 + x2) / 2, (y1 + y2) / 2, length / 2, 0.75, std::atan2(y2 - y1, x2 - x1)};
            box.thin = true;
            space_.take(box);
            return;
        }
        std::set<std::pair<long, long>> cells;
        const double steps = std::max(std::fabs(x2 - x1), std::fabs(y2 - y1)) * 4;
        for (int i = 0; i <= static_cast<int>(steps); ++i) {
            const double t = steps > 0 ? i / steps : 0;
            cells.insert({static_cast<long>(std::floor(x1 + (x2 - x1) * t)), static_cast<long>(std::floor(y1 + (y2 - y1) * t))});
        }
        for (const auto& [col, row] : cells) {
            Box box{col + 0.5, row + 0.5, 0.45, 0.45, 0};
            box.thin = true;
            space_.take(box);
        }
    }

    void add_line_obstacles() {
        for (const auto& line : out_.lines)
            add_segment_obstacle(out_.px(line.x1), out_.py(line.y1), out_.px(line.x2), out_.py(line.y2));
        for (const auto& series : out_.series) {
            const auto path = series_path(series);
            for (std::size_t i = 1; i < path.size(); ++i) {
                const Marker& a = out_.markers[out_.points[path[i - 1]].markers.front()];
                const Marker& b = out_.markers[out_.points[path[i]].markers.front()];
                add_segment_obstacle(out_.px(a.intensity), out_.py(a.performance), out_.px(b.intensity), out_.py(b.performance));
            }
        }
        for (const auto& point : out_.points) {
            if (point.markers.size() < 2) continue;
            double low = std::numeric_limits<double>::max(), high = 0;
            for (std::size_t index : point.markers) {
                low = std::min(low, out_.markers[index].intensity);
                high = std::max(high, out_.markers[index].intensity);
            }
            add_segment_obstacle(out_.px(low), out_.py(point.performance), out_.px(high), out_.py(point.performance));
        }
    }

    Box label_box(const PlacedLabel& label) const {
        const double width = text_units(label.text) * (label.small ? canvas().small_char_width : canvas().char_width);
        const double height = label.small ? canvas().small_label_height : canvas().label_height;
        if (!canvas().rotated_labels) {
            // Character cells: exactly the cells the terminal writes (term_chart's draw_label).
            const double left = static_cast<double>(std::lround(label.anchor_end ? label.x - width : label.x));
            return {left + width / 2, std::floor(label.y - 0.3) + 0.5, width / 2, 0.5, 0};
        }
        const double angle = label.angle * std::numbers::pi / 180;
        // In the label's own frame: along the text from the anchor, up from the baseline.
        const double u = label.anchor_end ? -width / 2 : width / 2;
        const double v = -0.3 * height;
        return {label.x + u * std::cos(angle) - v * std::sin(angle), label.y + u * std::sin(angle) + v * std::cos(angle),
                width / 2, height / 2, angle};
    }

    bool inside_plot(const Box& box) const {
        const double tolerance = canvas().label_height * 0.2;
        return box.cx - box.extent_x() >= canvas().plot_left - tolerance &&
               box.cx + box.extent_x() <= canvas().plot_right + tolerance &&
               box.cy - box.extent_y() >= canvas().plot_top - tolerance &&
               box.cy + box.extent_y() <= canvas().plot_bottom + tolerance;
    }

    double pad() const { return canvas().label_height * 0.25; }

    // First every label tries to keep off the drawn lines; a second pass lets
    // the ones that found no room cross lines (renderers give text a halo).
    bool over_lines_ = false;

    // A terminal chart of several machines: the lines drawn in each cell (terminal_line_cells),
    // in drawing order, the cells labels cover, and the line whose label is being placed. Lines
    // of two machines run a cell or two apart there, and a label put by a point of its own line
    // could end up touching only the other machine's ("[2] DRAM bandwidth" by the first
    // machine's L1 roofs), its own line's cells drawn over by a later line or covered by a label.
    std::vector<std::vector<std::size_t>> lines_at_;  // by cell, row by row (terminal_cell_index)
    std::vector<bool> label_cells_;                   // by cell: a label covers it
    struct LineLabel {
        Box box;
        std::size_t line;
    };
    std::vector<LineLabel> line_labels_;  // the lines' labels placed so far
    std::optional<std::size_t> placing_;

    int grid_columns() const { return static_cast<int>(canvas().width); }
    int grid_rows() const { return static_cast<int>(canvas().height); }
    // The index of a cell of the chart in lines_at_ and label_cells_; nullopt off the chart.
    std::optional<std::size_t> terminal_cell_index(int col, int row) const {
        if (col < 0 || row < 0 || col >= grid_columns() || row >= grid_rows()) return std::nullopt;
        return static_cast<std::size_t>(row) * static_cast<std::size_t>(grid_columns()) + static_cast<std::size_t>(col);
    }

    void map_terminal_lines() {
        if (canvas().rotated_labels || !out_.multi_machine) return;
        lines_at_.assign(static_cast<std::size_t>(grid_columns()) * static_cast<std::size_t>(grid_rows()), {});
        label_cells_.assign(lines_at_.size(), false);
        for (std::size_t i = 0; i < out_.lines.size(); ++i)
            for (const auto& [col, row] : terminal_line_cells(out_, out_.lines[i]))
                if (const auto at = terminal_cell_index(col, row)) lines_at_[*at].push_back(i);
    }

    struct CellSpan {
        int row, left, right;
    };
    static CellSpan cells_of(const Box& box) {  // a terminal label's box: one row of cells
        const int left = static_cast<int>(std::lround(box.cx - box.half_w));
        return {static_cast<int>(std::floor(box.cy)), left, left + static_cast<int>(std::lround(2 * box.half_w)) - 1};
    }

    // Whether the label `box` of out_.lines[own_index] is beside its own line as drawn: a cell
    // showing that line (it was drawn last there, and no label covers it) at most two cells away
    // (the label ends one cell clear of the point it was put by), and no other machine's line
    // nearer than that. `also_covered`: a label about to be placed, covering cells too.
    bool beside_own_line(const Box& box, std::size_t own_index, const std::optional<CellSpan>& also_covered) const {
        const ChartLine& own = out_.lines[own_index];
        const CellSpan span = cells_of(box);
        const auto covered = [&](int c, int r, std::size_t at) {
            if (r == span.row && c >= span.left && c <= span.right) return true;
            if (also_covered && r == also_covered->row && c >= also_covered->left && c <= also_covered->right) return true;
            return static_cast<bool>(label_cells_[at]);
        };
        int own_distance = 99, other_distance = 99;
        for (int r = span.row - 2; r <= span.row + 2; ++r)
            for (int c = span.left - 3; c <= span.right + 3; ++c) {
                const auto at = terminal_cell_index(c, r);
                if (!at || lines_at_[*at].empty() || covered(c, r, *at)) continue;
                const int distance = std::max({0, span.left - c, c - span.right, std::abs(r - span.row)});
                const auto& drawn = lines_at_[*at];
                if (drawn.back() == own_index) own_distance = std::min(own_distance, distance);
                for (const std::size_t index : drawn) {
                    const ChartLine& line = out_.lines[index];
                    if (line.machine != own.machine && line.kind != LineKind::intensity_line)
                        other_distance = std::min(other_distance, distance);
                }
            }
        return own_distance <= 2 && own_distance <= other_distance;
    }

    // A label may go where it is beside its own line (a line's label) and leaves every line's
    // label placed before beside its own (it covers none of the cells that kept it there). Always
    // true but on a terminal chart of several machines.
    bool keeps_labels_beside_their_lines(const Box& box) const {
        if (lines_at_.empty()) return true;
        if (placing_ && !beside_own_line(box, *placing_, std::nullopt)) return false;
        // Only a label whose surroundings (two rows, three columns) the new one reaches can change.
        const CellSpan span = cells_of(box);
        return std::all_of(line_labels_.begin(), line_labels_.end(), [&](const LineLabel& placed) {
            const CellSpan other = cells_of(placed.box);
            const bool reaches = std::abs(other.row - span.row) <= 2 && span.left <= other.right + 3 &&
                                 span.right >= other.left - 3;
            return !reaches || beside_own_line(placed.box, placed.line, span);
        });
    }

    bool try_take(const PlacedLabel& label) {
        const Box box = label_box(label);
        if (!inside_plot(box) || !space_.free(box, pad(), over_lines_) || !keeps_labels_beside_their_lines(box))
            return false;
        space_.take(box);
        if (!lines_at_.empty()) {
            const CellSpan span = cells_of(box);
            for (int c = span.left; c <= span.right; ++c)
                if (const auto at = terminal_cell_index(c, span.row)) label_cells_[*at] = true;
            if (placing_) line_labels_.push_back({box, *placing_});
        }
        return true;
    }

    // Places the label of out_.lines[index] with `place`, checked against that line.
    template <class Place>
    auto placing(const ChartLine& line, Place place) {
        placing_ = static_cast<std::size_t>(&line - out_.lines.data());
        auto result = place();
        placing_.reset();
        return result;
    }

    double text_width(const std::string& text, bool small) const {
        return text_units(text) * (small ? canvas().small_char_width : canvas().char_width);
    }

    // Right-aligned above a horizontal line at the right edge, else below it,
    // moving left along the line while there is line under the label.
    std::optional<PlacedLabel> place_horizontal(const ChartLine& line, bool small) {
        const double y = out_.py(line.y1);
        const double start = out_.px(line.x1);
        const double width = text_width(line.text, small);
        const double font = small ? canvas().small_label_height : canvas().label_height;
        const double gap = canvas().rotated_labels ? 5 : 0;
        const double edge = canvas().plot_right - (canvas().rotated_labels ? 6 : 1);
        // Character cells: the row above the line's row, or the row below it.
        const double above = canvas().rotated_labels ? y - gap : std::floor(y) - 0.2;
        const double below = canvas().rotated_labels ? y + font + 3 : std::floor(y) + 1.8;
        // Character cells: whole steps, so the text stays on the cells it was checked on.
        const double step = canvas().rotated_labels ? std::max(2 * font, std::min(width + 2 * font, width / 3))
                                                    : std::max(2.0, std::ceil(width / 3));
        for (double right = edge; right - width > start + gap; right -= step) {
            for (double baseline : {above, below}) {
                PlacedLabel label{line.text, right, baseline, 0, true, small};
                if (try_take(label)) return label;
            }
        }
        return std::nullopt;
    }

    // Along a slanted line, ending a little before its upper end so the ridge
    // marker stays clear, moving down the line while the place is taken.
    std::optional<PlacedLabel> place_slanted(const ChartLine& line, bool small) {
        const double x1 = out_.px(line.x1), y1 = out_.py(line.y1);
        const double x2 = out_.px(line.x2), y2 = out_.py(line.y2);
        const double width = text_width(line.text, small);
        const double font = small ? canvas().small_label_height : canvas().label_height;
        const double length = std::hypot(x2 - x1, y2 - y1);
        if (canvas().rotated_labels) {
            const double angle = std::atan2(y2 - y1, x2 - x1);
            const double cos_a = std::cos(angle), sin_a = std::sin(angle);
            // Above the line (baseline 5 px off it), else below it (top 3 px off it).
            for (double offset : {5.0, -(font + 3)}) {
                const double normal_x = sin_a * offset, normal_y = -cos_a * offset;
                for (double end = length - 24; end - width >= 4; end -= std::max(width / 3, 2 * font)) {
                    const double start = end - width;
                    PlacedLabel label{line.text, x1 + start * cos_a + normal_x, y1 + start * sin_a + normal_y,
                                      angle * 180 / std::numbers::pi, false, small};
                    if (try_take(label)) return label;
                }
            }
            return std::nullopt;
        }
        // Horizontal text just above-left of a point on the line, clear of the line itself:
        // a few spread-out spots, then every cell along the line.
        std::vector<double> fractions{0.15, 0.3, 0.45, 0.6, 0.75, 0.05, 0.9};
        const double cells_long = std::ceil(std::max(std::fabs(x2 - x1), std::fabs(y2 - y1)));
        for (double i = 0; i <= cells_long && cells_long > 0; ++i) fractions.push_back(i / cells_long);
        for (double fraction : fractions) {
            const double x = x1 + (x2 - x1) * fraction, y = y1 + (y2 - y1) * fraction;
            PlacedLabel label{line.text, std::floor(x) - 1, std::floor(y) - 0.2, 0, true, small};
            if (try_take(label)) return label;
            PlacedLabel below{line.text, std::floor(x) + 2, std::floor(y) + 1.8, 0, false, small};
            if (try_take(below)) return below;
        }
        return std::nullopt;
    }

    // Region names along the top of the plot, centred in their region.
    void place_region_labels() {
        for (auto& region : out_.regions) {
            const double x1 = out_.px(region.from), x2 = out_.px(region.to);
            const double width = text_width(region.name, true);
            if (x2 - x1 < width + 4) continue;
            const double top = canvas().plot_top + (canvas().rotated_labels ? canvas().small_label_height + 3 : 1.8);
            PlacedLabel label{region.name, (x1 + x2 - width) / 2, top, 0, false, true};
            over_lines_ = true;
            if (try_take(label)) {
                region.label = label;
                region.has_label = true;
            }
            over_lines_ = false;
        }
    }

    template <class Place>
    auto relaxed(Place place) {
        over_lines_ = true;
        auto result = place();
        over_lines_ = false;
        return result;
    }

    void place_line_labels() {
        // Roofs first, then ceilings (left out without room), then intensity lines.
        // A roof's text goes where it overlaps nothing (crossing a line at worst); a roof
        // whose text has no such room gets its short tag ("R1") there instead, once every
        // roof has had its try, and the legend names it. Nothing is ever drawn over another
        // label or a marker: two near-identical machines piled six labels on one spot.
        auto is_roof = [](const ChartLine& l) {
            return l.kind == LineKind::compute_roof || l.kind == LineKind::bandwidth_roof;
        };
        // `line` is placed as the line `own` of out_.lines (a roof's tag: a copy with the tag's text).
        auto place_roof = [&](const ChartLine& line, const ChartLine& own) {
            auto place = [&] {
                return line.kind == LineKind::compute_roof ? place_horizontal(line, false) : place_slanted(line, false);
            };
            return placing(own, [&] {
                auto label = place();
                if (!label) label = relaxed(place);
                return label;
            });
        };
        std::vector<ChartLine*> without_room;
        for (auto& line : out_.lines) {
            if (!is_roof(line)) continue;
            if (auto label = place_roof(line, line)) {
                line.label = *label;
                line.has_label = true;
            } else {
                without_room.push_back(&line);
            }
        }
        std::size_t tags = 0;
        for (ChartLine* line : without_room) {
            ChartLine tagged = *line;
            tagged.text = fmt::format("R{}", tags + 1);
            if (auto label = place_roof(tagged, *line)) {
                line->tag = tagged.text;
                line->label = *label;
                line->has_label = true;
                ++tags;
            }
        }
        std::vector<std::string> unlabelled;
        std::vector<ChartLine> kept;
        for (auto& line : out_.lines) {
            if (is_ceiling(line.kind)) {
                auto place = [&] {
                    return line.kind == LineKind::compute_ceiling ? place_horizontal(line, true) : place_slanted(line, true);
                };
                auto label = placing(line, place);
                if (!label) label = placing(line, [&] { return relaxed(place); });
                if (!label) {
                    unlabelled.push_back(line.text);
                    continue; // a ceiling without its name is noise: leave it out
                }
                line.label = *label;
                line.has_label = true;
            } else if (line.kind == LineKind::intensity_line) {
                const double x = out_.px(line.x1);
                for (double y = canvas().plot_top + canvas().small_label_height + 2; y < canvas().plot_bottom;
                     y += canvas().small_label_height * 2) {
                    PlacedLabel label{line.text, x + (canvas().rotated_labels ? 3 : 1), y, 0, false, true};
                    if (try_take(label)) {
                        line.label = label;
                        line.has_label = true;
                        break;
                    }
                }
            }
            kept.push_back(std::move(line));
        }
        out_.lines = std::move(kept);
        if (!unlabelled.empty())
            out_.notes.push_back(fmt::format("{} ceiling{} left out for lack of room", unlabelled.size(),
                                             unlabelled.size() == 1 ? "" : "s"));
    }

    // Ridge intensities are read off the x axis: vertical text by the drop line.
    void place_ridge_labels() {
        if (!canvas().rotated_labels) return; // the terminal lists them below the chart
        std::vector<RidgeMark*> order;
        for (auto& ridge : out_.ridges) order.push_back(&ridge);
        std::stable_sort(order.begin(), order.end(), [](auto* a, auto* b) { return a->intensity < b->intensity; });
        for (auto* ridge : order) {
            const double x = out_.px(ridge->intensity);
            const std::string text = fmt::format("{:.3g} {}/B", ridge->intensity, out_.work_unit);
            for (double shift : {-3.0, 3.0 + canvas().small_label_height, -3.0 - canvas().small_label_height}) {
                PlacedLabel label{text, x + shift, canvas().plot_bottom - 5, -90, false, true};
                if (try_take(label)) {
                    ridge->label = label;
                    ridge->has_label = true;
                    break;
                }
            }
        }
    }

    // Spots for a point's text around its marker at (cx, cy): 8 near ones, then farther
    // rings (which get a leader line). `rings` 1: the 4 diagonal far spots only.
    std::vector<PlacedLabel> point_label_spots(const std::string& text, double cx, double cy, int rings) const {
        const double r = canvas().marker_radius;
        const double h = canvas().label_height;
        const bool cells = !canvas().rotated_labels;
        const double gap = cells ? 1 : r + pad() + 1.5; // clear of its own marker
        const double width = text_width(text, false);
        const double mid = cells ? 0.5 : 0.35 * h; // baseline that centres the text on the marker
        std::vector<PlacedLabel> spots = {
            {text, cx + gap, cy + mid, 0, false, false},
            {text, cx - gap, cy + mid, 0, true, false},
            {text, cx - width / 2, cy - gap - (cells ? 0 : 1), 0, false, false},
            {text, cx - width / 2, cy + gap + h * (cells ? 1 : 0.8), 0, false, false},
            {text, cx + gap * 0.7, cy - gap * 0.7, 0, false, false},
            {text, cx + gap * 0.7, cy + gap * 0.7 + h * 0.8, 0, false, false},
            {text, cx - gap * 0.7, cy - gap * 0.7, 0, true, false},
            {text, cx - gap * 0.7, cy + gap * 0.7 + h * 0.8, 0, true, false},
        };
        for (int ring = 1; ring <= rings; ++ring) {
            const double far = cells ? 1 + ring : gap + 2 * h * ring;
            spots.push_back({text, cx + far, cy - far, 0, false, false});
            spots.push_back({text, cx + far, cy + far + h * 0.8, 0, false, false});
            spots.push_back({text, cx - far, cy - far, 0, true, false});
            spots.push_back({text, cx - far, cy + far + h * 0.8, 0, true, false});
            if (ring == 1) continue;
            spots.push_back({text, cx + far, cy + mid, 0, false, false});
            spots.push_back({text, cx - far, cy + mid, 0, true, false});
            spots.push_back({text, cx - width / 2, cy - far, 0, false, false});
            spots.push_back({text, cx - width / 2, cy + far + h * 0.8, 0, false, false});
        }
        return spots;
    }

    // Near spots before far ones; keeping off lines before crossing them.
    std::optional<PlacedLabel> place_near(const std::vector<PlacedLabel>& spots) {
        const std::size_t near = std::min<std::size_t>(8, spots.size());
        std::optional<PlacedLabel> placed;
        for (auto [first, last, over_lines] : {std::tuple{std::size_t{0}, near, false}, std::tuple{std::size_t{0}, near, true},
                                               std::tuple{near, spots.size(), false}, std::tuple{near, spots.size(), true}}) {
            over_lines_ = over_lines;
            for (std::size_t c = first; c < last && !placed; ++c)
                if (try_take(spots[c])) placed = spots[c];
            if (placed) break;
        }
        over_lines_ = false;
        return placed;
    }

    // A leader line from the marker's edge to the label's nearest edge when the label
    // sits more than leader_distance away: a reader should not have to guess its point.
    void add_leader(PlottedPoint& point, double cx, double cy) {
        const Box box = label_box(point.label);
        const double nx = std::clamp(cx, box.cx - box.extent_x(), box.cx + box.extent_x());
        const double ny = std::clamp(cy, box.cy - box.extent_y(), box.cy + box.extent_y());
        const double distance = std::hypot(nx - cx, ny - cy);
        if (!canvas().rotated_labels || distance <= leader_distance) return;
        const double ux = (nx - cx) / distance, uy = (ny - cy) / distance;
        const double from = canvas().marker_radius + 1.5, to = distance - 2;
        point.has_leader = true;
        point.leader_x1 = cx + ux * from;
        point.leader_y1 = cy + uy * from;
        point.leader_x2 = cx + ux * to;
        point.leader_y2 = cy + uy * to;
        Box line{(point.leader_x1 + point.leader_x2) / 2, (point.leader_y1 + point.leader_y2) / 2, (to - from) / 2, 0.75,
                 std::atan2(uy, ux)};
        line.thin = true;
        space_.take(line);
    }

    void place_point_labels() {
        // Each try scans the crowded space around its point: past the first
        // max_tries labelled points no more are tried (their markers are all drawn).
        const std::size_t max_tries = point_label_tries_per_label * canvas().max_point_labels;
        std::size_t placed = 0, wanted = 0, tried = 0, numbered = 0;
        for (auto& point : out_.points) {
            if (point.text.empty()) continue;
            ++wanted;
            if (placed >= canvas().max_point_labels || tried >= max_tries) continue;
            ++tried;
            const Marker& marker = out_.markers[point.markers.front()];
            const double cx = out_.px(marker.intensity), cy = out_.py(marker.performance);
            if (auto label = place_near(point_label_spots(point.text, cx, cy, 1))) {
                point.label = *label;
                point.has_label = true;
                ++placed;
            } else if (numbered < max_numbered_points) {
                // No room for the name: a number by the marker, the name in the legend.
                const std::string number = std::to_string(numbered + 1);
                if (auto tag = place_near(point_label_spots(number, cx, cy, 4))) {
                    point.tag = number;
                    point.label = *tag;
                    point.has_label = true;
                    ++numbered;
                }
            }
            if (point.has_label) add_leader(point, cx, cy);
        }
        if (placed < wanted && canvas().max_point_labels > 0) {
            const std::string why = placed >= canvas().max_point_labels ? fmt::format("at most {} per chart", placed)
                                    : tried < wanted ? fmt::format("labels tried for the first {} points only", tried)
                                                     : std::string("the others had no free room");
            out_.notes.push_back(fmt::format("{} of {} point labels shown ({}){}", placed, wanted, why,
                                             numbered > 0 ? fmt::format("; {} numbered, named in the legend", numbered) : ""));
        }
    }

    // ------------------------------------------------------------ legend and titles

    void add_legend() {
        std::vector<LegendItem> items;
        if (out_.multi_machine)
            for (std::size_t m = 0; m < out_.machines.size(); ++m)
                items.push_back({LegendItem::Kind::machine, fmt::format("[{}] {}", m + 1, out_.machines[m].label),
                                 out_.machines[m].colour, MarkerShape::circle, m, 0, 0});
        constexpr std::size_t max_series_in_legend = 24;
        for (std::size_t s = 0; s < out_.series.size() && s < max_series_in_legend; ++s)
            items.push_back({LegendItem::Kind::series, out_.series[s].name, out_.series[s].colour, MarkerShape::circle, s, 0, 0});
        if (out_.series.size() > max_series_in_legend)
            out_.notes.push_back(fmt::format("{} more series not in the legend", out_.series.size() - max_series_in_legend));
        if (out_.view == View::carm) {
            std::vector<std::string> levels;
            for (const auto& marker : out_.markers)
                if (std::find(levels.begin(), levels.end(), marker.level) == levels.end()) levels.push_back(marker.level);
            std::sort(levels.begin(), levels.end(), [](auto& a, auto& b) { return level_before(a, b); });
            if (levels.size() > 1)
                for (const auto& level : levels)
                    items.push_back({LegendItem::Kind::level_shape, level + " intensity", "#333333", shape_for_level(level), 0, 0, 0});
        }
        // Roofs whose name had no room on the plot: their tag there, named here.
        for (std::size_t i = 0; i < out_.lines.size(); ++i) {
            const ChartLine& line = out_.lines[i];
            if (line.kind != LineKind::compute_roof && line.kind != LineKind::bandwidth_roof) continue;
            if (!line.tag.empty())
                items.push_back({LegendItem::Kind::roof, line.tag + " " + line.text, line.colour, MarkerShape::circle, i, 0, 0});
            else if (!line.has_label)
                items.push_back({LegendItem::Kind::roof, line.text + " (no room on the plot)", line.colour, MarkerShape::circle, i, 0, 0});
        }
        // Points numbered on the plot; and, among few points, any left without a mark.
        const bool few = out_.points.size() <= max_numbered_points && canvas().max_point_labels > 0;
        for (std::size_t i = 0; i < out_.points.size(); ++i) {
            const PlottedPoint& point = out_.points[i];
            const MarkerShape shape = out_.markers[point.markers.front()].shape;
            if (!point.tag.empty())
                items.push_back({LegendItem::Kind::point, point.tag + " " + point.text, point.colour, shape, i, 0, 0});
            else if (few && !point.has_label && !point.text.empty())
                items.push_back({LegendItem::Kind::point, point.text + " (no room by its marker)", point.colour, shape, i, 0, 0});
        }
        if (items.empty()) return;
        // Flow the items in rows under the x-axis title.
        const double row_height = canvas().label_height * 1.5;
        double x = canvas().plot_left, y = canvas().plot_bottom + 70;
        for (auto& item : items) {
            const double width = 22 + text_width(item.text, false) + 18;
            if (x + width > canvas().plot_right && x > canvas().plot_left) {
                x = canvas().plot_left;
                y += row_height;
            }
            item.x = x + 8;
            item.y = y;
            x += width;
        }
        out_.legend = std::move(items);
        const double needed = y + row_height + 50;
        if (needed > out_.canvas.height) out_.canvas.height = needed;
    }

    void add_titles() {
        out_.title = in_.title;
        if (out_.title.empty()) {
            // Every precision drawn, in order (a CPU's DP beside a GPU's FP64 and BF16).
            std::string precision_text;
            std::vector<std::string> precisions;
            for (const auto& m : in_.machines) {
                const std::string p = precision_label(m.precision);
                if (!p.empty() && std::find(precisions.begin(), precisions.end(), p) == precisions.end()) {
                    precisions.push_back(p);
                    precision_text += ", " + p;
                }
            }
            if (in_.machines.size() == 1) {
                const int threads = in_.machines.front().threads;  // 0: a GPU, not counted in threads
                out_.title = fmt::format("Roofline ({}): {}{}{}", in_.view == View::orm ? "ORM" : "CARM",
                                         out_.machines.front().label,
                                         threads > 0 ? fmt::format(", {} thread{}", threads, threads == 1 ? "" : "s") : "",
                                         precision_text);
            } else if (in_.machines.empty()) {
                out_.title = fmt::format("Roofline ({})", in_.view == View::orm ? "ORM" : "CARM");
            } else {
                out_.title = fmt::format("Roofline ({}): {} machines{}", in_.view == View::orm ? "ORM" : "CARM",
                                         in_.machines.size(), precision_text);
            }
        }
        out_.subtitle = in_.subtitle;
        out_.banner = in_.banner;
        out_.footer = in_.footer;
        if (out_.footer.empty() && !in_.machines.empty()) {
            out_.footer.push_back(in_.view == View::orm
                                      ? "ORM: points at their DRAM intensity; bandwidth: L1 in nominal bytes, below in traffic (+WA)"
                                      : "CARM: one marker per memory level the point has bytes for, joined; "
                                        "bandwidth: L1 in nominal bytes, below in traffic (+WA)");
        }
        // Footer and notes sit at the bottom; grow the canvas for each extra line.
        const std::size_t lines = out_.footer.size() + out_.notes.size();
        if (lines > 2) out_.canvas.height += 18 * static_cast<double>(lines - 2);
    }
};

} // namespace

Canvas svg_canvas() { return Canvas{}; }

Canvas terminal_canvas(int width, int height) {
    Canvas c;
    c.width = width;
    c.height = height;
    c.plot_left = 8;           // "1000 +" tick labels
    c.plot_right = width - 2;
    c.plot_top = 1;             // the title row
    c.plot_bottom = height - 4; // the axis, tick labels and the axis title below
    c.char_width = c.small_char_width = 1;
    c.label_height = c.small_label_height = 1;
    c.marker_radius = 0.5;
    c.rotated_labels = false;
    c.max_point_labels = 0;     // letters on the chart, names in the key below it
    c.max_label_chars = static_cast<std::size_t>(std::clamp(width / 2, 24, 60));  // a key line about the chart's width
    return c;
}

double Axis::min() const { return std::pow(10.0, low_decade); }
double Axis::max() const { return std::pow(10.0, high_decade); }
bool Axis::contains(double value) const {
    // A hair of tolerance so values exactly on a decade stay inside.
    return usable(value) && std::log10(value) >= low_decade - 1e-9 && std::log10(value) <= high_decade + 1e-9;
}

bool is_ceiling(LineKind kind) { return kind == LineKind::compute_ceiling || kind == LineKind::bandwidth_ceiling; }

MarkerShape shape_for_level(const std::string& level) {
    if (level == "L1") return MarkerShape::circle;
    if (level == "L2") return MarkerShape::square;
    if (level == "L3") return MarkerShape::diamond;
    if (level == "DRAM") return MarkerShape::triangle;
    return MarkerShape::cross;
}

double ChartLayout::px(double intensity_value) const {
    return canvas.plot_left + (std::log10(intensity_value) - x.low_decade) / (x.high_decade - x.low_decade) *
                                  (canvas.plot_right - canvas.plot_left);
}
double ChartLayout::py(double performance_value) const {
    return canvas.plot_bottom - (std::log10(performance_value) - y.low_decade) / (y.high_decade - y.low_decade) *
                                    (canvas.plot_bottom - canvas.plot_top);
}
double ChartLayout::intensity_at(double canvas_x) const {
    return std::pow(10.0, x.low_decade + (canvas_x - canvas.plot_left) / (canvas.plot_right - canvas.plot_left) *
                                             (x.high_decade - x.low_decade));
}
double ChartLayout::performance_at(double canvas_y) const {
    return std::pow(10.0, y.low_decade + (canvas.plot_bottom - canvas_y) / (canvas.plot_bottom - canvas.plot_top) *
                                             (y.high_decade - y.low_decade));
}

ChartLayout layout_chart(const ChartInput& input, const Canvas& canvas) { return LayoutBuilder(input, canvas).build(); }

std::vector<std::pair<int, int>> terminal_line_cells(const ChartLayout& layout, const ChartLine& line) {
    // Clamped before the conversion: a position far off the canvas must not overflow an int.
    const auto cell = [](double canvas_value) {
        if (!std::isfinite(canvas_value)) return -1;
        return static_cast<int>(std::floor(std::clamp(canvas_value, -1e6, 1e6)));
    };
    const Canvas& c = layout.canvas;
    const double x1 = layout.px(line.x1), y1 = layout.py(line.y1), x2 = layout.px(line.x2), y2 = layout.py(line.y2);
    std::vector<std::pair<int, int>> cells;
    if (line.kind == LineKind::intensity_line) {
        for (int row = cell(std::min(y1, y2)); row <= cell(std::max(y1, y2)); ++row)
            if (row >= c.plot_top && row <= c.plot_bottom) cells.emplace_back(cell(x1), row);
        return cells;
    }
    if (std::fabs(y2 - y1) < 1e-9) {
        for (int col = cell(x1); col <= cell(x2); ++col) cells.emplace_back(col, cell(y1));
        return cells;
    }
    // Sampled finely along the segment; one entry per visited cell.
    const double steps = std::max(std::fabs(x2 - x1), std::fabs(y2 - y1)) * 4;
    for (int i = 0; i <= static_cast<int>(steps); ++i) {
        const double t = steps > 0 ? i / steps : 0;
        const std::pair<int, int> at{cell(x1 + (x2 - x1) * t), cell(std::min(y1 + (y2 - y1) * t, c.plot_bottom))};
        if (cells.empty() || cells.back() != at) cells.push_back(at);
    }
    return cells;
}

std::vector<std::size_t> series_path(const SeriesLine& series) {
    if (!series.from_first || series.points.size() < 3) return series.points;
    std::vector<std::size_t> path{series.points.front()};
    for (std::size_t i = 1; i < series.points.size(); ++i) {
        if (i > 1) path.push_back(series.points.front());
        path.push_back(series.points[i]);
    }
    return path;
}

std::string format_decade(int exponent) {
    if (exponent >= 0 && exponent <= 5) return fmt::format("{}", std::pow(10.0, exponent));
    if (exponent < 0 && exponent >= -4) return fmt::format("{:.{}f}", std::pow(10.0, exponent), -exponent);
    return fmt::format("1e{}", exponent);
}

} // namespace roofline
