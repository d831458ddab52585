#include "render/svg_roofline.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <map>
#include <numbers>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace roofline {
namespace {

// ---------------------------------------------------------------- layout

constexpr double canvas_width = 960;
constexpr double canvas_height = 640;
constexpr double plot_left = 90;
constexpr double plot_right = canvas_width - 30;
constexpr double plot_top = 80;
constexpr double plot_bottom = canvas_height - 120;

constexpr double label_font = 12;
constexpr double small_font = 10;
// Rough advance width of the sans-serif font, for placing labels without a layout engine.
constexpr double char_width_per_font = 0.58;

constexpr std::string_view dp_colour = "#1f3a93";
constexpr std::string_view sp_colour = "#d95f02";
constexpr std::string_view other_precision_colour = "#555555";
constexpr std::string_view ceiling_colour = "#8c8c8c";
constexpr std::string_view level_colours[] = {"#1b9e77", "#7570b3", "#e7298a", "#a6761d",
                                              "#66a61e", "#e6ab02", "#666666"};

double text_width(std::string_view text, double font) {
    return static_cast<double>(text.size()) * font * char_width_per_font;
}

// ---------------------------------------------------------------- text

std::string xml_escape(std::string_view text) {
    std::string out;
    out.reserve(text.size());
    for (char ch : text) {
        switch (ch) {
        case '&': out += "&amp;"; break;
        case '<': out += "&lt;"; break;
        case '>': out += "&gt;"; break;
        case '"': out += "&quot;"; break;
        case '\'': out += "&apos;"; break;
        default:
            // Control characters are not allowed in XML 1.0 at all.
            if (static_cast<unsigned char>(ch) < 0x20 && ch != '\t' && ch != '\n' && ch != '\r') {
                out += ' ';
            } else {
                out += ch;
            }
        }
    }
    return out;
}

std::string format_value(double value) {
    return value >= 1 ? fmt::format("{:.1f}", value) : fmt::format("{:.3g}", value);
}

std::string format_decade(int exponent) {
    if (exponent >= 0 && exponent <= 5) return fmt::format("{}", std::pow(10.0, exponent));
    if (exponent < 0 && exponent >= -4) return fmt::format("{:.{}f}", std::pow(10.0, exponent), -exponent);
    return fmt::format("1e{}", exponent);
}

std::string upper(std::string text) {
    for (auto& ch : text) ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
    return text;
}

// ---------------------------------------------------------------- choosing roofs

struct BandwidthRoof {
    const MemoryRoof* roof;
    std::string colour;
    double ridge_intensity = 0; // where it meets the reference (DP) compute roof
};

struct Selection {
    int compute_threads = 0;
    int memory_threads = 0;
    std::vector<const ComputeRoof*> top_compute;   // one per precision, dp first
    std::vector<BandwidthRoof> bandwidth;          // one per level, L1 first
    std::vector<const ComputeRoof*> ceilings;      // lower compute ceilings, highest first
    const ComputeRoof* reference = nullptr;        // the roof ridge points are measured against
    double top_peak = 0;                           // highest compute roof: diagonals end there
};

bool usable(double value) { return std::isfinite(value) && value > 0; }

int precision_rank(const std::string& precision) {
    if (precision == "dp") return 0;
    if (precision == "sp") return 1;
    return 2;
}

// L1 < L2 < L3 < ... < DRAM < anything else (alphabetical).
std::pair<int, std::string> level_rank(const std::string& level) {
    if (level.size() >= 2 && (level[0] == 'L' || level[0] == 'l') &&
        std::all_of(level.begin() + 1, level.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); })) {
        return {std::stoi(level.substr(1)), ""};
    }
    if (upper(level) == "DRAM" || upper(level) == "MEM" || upper(level) == "MEMORY") return {100, ""};
    return {200, level};
}

std::string compute_label(const ComputeRoof& roof) {
    return fmt::format("{} peak {} GFLOP/s", upper(roof.precision), format_value(roof.gflops));
}

std::string ceiling_label(const ComputeRoof& roof) {
    std::string name = roof.name;
    if (name.empty()) {
        name = fmt::format("{} {} {} {}t", roof.precision, roof.isa, roof.mix, roof.threads);
    }
    return fmt::format("{} {} GFLOP/s", name, format_value(roof.gflops));
}

std::string bandwidth_label(const MemoryRoof& roof) {
    return fmt::format("{} {} {} GB/s", roof.level, roof.pattern, format_value(roof.gbs));
}

Selection select_roofs(const MachineModel& model) {
    Selection s;
    for (const auto& c : model.compute) {
        if (usable(c.gflops)) s.compute_threads = std::max(s.compute_threads, c.threads);
    }
    for (const auto& m : model.memory) {
        if (usable(m.gbs)) s.memory_threads = std::max(s.memory_threads, m.threads);
    }
    // Prefer bandwidth at the same thread count as the compute roofs.
    if (std::any_of(model.memory.begin(), model.memory.end(), [&](const MemoryRoof& m) {
            return usable(m.gbs) && m.threads == s.compute_threads;
        })) {
        s.memory_threads = s.compute_threads;
    }

    // Top roof per precision; the first entry wins ties, so output is stable.
    std::map<std::pair<int, std::string>, const ComputeRoof*> best_compute;
    for (const auto& c : model.compute) {
        if (!usable(c.gflops) || c.threads != s.compute_threads) continue;
        auto& slot = best_compute[{precision_rank(c.precision), c.precision}];
        if (!slot || c.gflops > slot->gflops) slot = &c;
    }
    for (const auto& [key, roof] : best_compute) {
        s.top_compute.push_back(roof);
        s.top_peak = std::max(s.top_peak, roof->gflops);
    }
    if (!s.top_compute.empty()) {
        s.reference = s.top_compute.front()->precision == "dp"
                          ? s.top_compute.front()
                          : *std::max_element(s.top_compute.begin(), s.top_compute.end(),
                                              [](auto* a, auto* b) { return a->gflops < b->gflops; });
    }

    std::map<std::pair<int, std::string>, const MemoryRoof*> best_memory;
    for (const auto& m : model.memory) {
        if (!usable(m.gbs) || m.threads != s.memory_threads) continue;
        auto& slot = best_memory[level_rank(m.level)];
        if (!slot || m.gbs > slot->gbs) slot = &m;
    }
    std::size_t colour_index = 0;
    for (const auto& [key, roof] : best_memory) {
        BandwidthRoof b{roof, std::string(level_colours[std::min(colour_index, std::size(level_colours) - 1)])};
        ++colour_index;
        if (s.reference) b.ridge_intensity = s.reference->gflops / roof->gbs;
        s.bandwidth.push_back(std::move(b));
    }

    // Lower ceilings of the reference precision: other mixes at the same thread
    // count, and the 1-thread roof. Few and well apart, so the chart stays readable.
    std::vector<const ComputeRoof*> candidates;
    for (const auto& c : model.compute) {
        if (!usable(c.gflops)) continue;
        const bool is_top = std::find(s.top_compute.begin(), s.top_compute.end(), &c) != s.top_compute.end();
        if (c.threads == s.compute_threads && !is_top && s.reference && c.precision == s.reference->precision) {
            candidates.push_back(&c);
        }
    }
    if (s.reference && s.compute_threads > 1) {
        const ComputeRoof* single = nullptr;
        for (const auto& c : model.compute) {
            if (usable(c.gflops) && c.threads == 1 && c.precision == s.reference->precision &&
                (!single || c.gflops > single->gflops)) {
                single = &c;
            }
        }
        if (single) candidates.push_back(single);
    }
    std::stable_sort(candidates.begin(), candidates.end(),
                     [](auto* a, auto* b) { return a->gflops > b->gflops; });
    std::vector<double> drawn_values;
    for (auto* roof : s.top_compute) drawn_values.push_back(roof->gflops);
    constexpr std::size_t max_ceilings = 3;
    for (auto* roof : candidates) {
        if (s.ceilings.size() >= max_ceilings) break;
        const bool too_close = std::any_of(drawn_values.begin(), drawn_values.end(), [&](double v) {
            return std::fabs(std::log10(v / roof->gflops)) < 0.04; // within ~10%
        });
        if (too_close) continue;
        s.ceilings.push_back(roof);
        drawn_values.push_back(roof->gflops);
    }
    return s;
}

// ---------------------------------------------------------------- axes

struct Axes {
    int x_low = -2, x_high = 2;  // decades
    int y_low = 0, y_high = 3;

    double px(double intensity) const {
        return plot_left + (std::log10(intensity) - x_low) / (x_high - x_low) * (plot_right - plot_left);
    }
    double py(double gflops) const {
        return plot_bottom - (std::log10(gflops) - y_low) / (y_high - y_low) * (plot_bottom - plot_top);
    }
    double x_min() const { return std::pow(10.0, x_low); }
    double x_max() const { return std::pow(10.0, x_high); }
    double y_min() const { return std::pow(10.0, y_low); }
    double y_max() const { return std::pow(10.0, y_high); }
};

Axes choose_axes(const Selection& s) {
    double x_min = 1.0 / 64, x_max = 64;
    for (const auto& b : s.bandwidth) {
        if (s.top_peak > 0) {
            const double top_ridge = s.top_peak / b.roof->gbs;
            x_min = std::min(x_min, b.ridge_intensity / 4);
            x_max = std::max(x_max, top_ridge * 4);
        }
    }
    Axes axes;
    axes.x_low = static_cast<int>(std::floor(std::log10(x_min)));
    axes.x_high = static_cast<int>(std::ceil(std::log10(x_max)));

    // Low enough to show every bandwidth roof from the left edge and every ceiling.
    std::vector<double> lows;
    double y_max = 0;
    if (s.top_peak > 0) {
        y_max = s.top_peak * 2;
        lows.push_back(s.top_peak / 10);
    }
    for (const auto& b : s.bandwidth) {
        lows.push_back(b.roof->gbs * axes.x_min());
        if (s.top_peak <= 0) y_max = std::max(y_max, b.roof->gbs * axes.x_max());
    }
    for (auto* c : s.ceilings) lows.push_back(c->gflops / 2);
    if (lows.empty() || !(y_max > 0)) return axes; // nothing measured: default decades
    const double y_min = *std::min_element(lows.begin(), lows.end());
    axes.y_high = static_cast<int>(std::ceil(std::log10(y_max)));
    axes.y_low = static_cast<int>(std::floor(std::log10(y_min)));
    axes.y_low = std::max(axes.y_low, axes.y_high - 8); // keep the roofs readable
    if (axes.y_low >= axes.y_high) axes.y_low = axes.y_high - 1;
    return axes;
}

// ---------------------------------------------------------------- drawing

class SvgWriter {
public:
    void raw(const std::string& text) { out_ += text; out_ += '\n'; }

    void line(double x1, double y1, double x2, double y2, std::string_view colour, double width,
              std::string_view dash = "") {
        out_ += fmt::format(R"(<line x1="{:.1f}" y1="{:.1f}" x2="{:.1f}" y2="{:.1f}" stroke="{}" stroke-width="{}")",
                            x1, y1, x2, y2, colour, width);
        if (!dash.empty()) out_ += fmt::format(R"( stroke-dasharray="{}")", dash);
        out_ += "/>\n";
    }

    // `attributes` is trusted markup; `content` is escaped here.
    void text(double x, double y, std::string_view content, std::string_view attributes) {
        out_ += fmt::format(R"(<text x="{:.1f}" y="{:.1f}" {}>{}</text>)", x, y, attributes, xml_escape(content));
        out_ += '\n';
    }

    std::string take() { return std::move(out_); }

private:
    std::string out_;
};

void draw_grid(SvgWriter& svg, const Axes& axes) {
    svg.raw(fmt::format(R"(<rect x="{:.1f}" y="{:.1f}" width="{:.1f}" height="{:.1f}" fill="#fcfcfc" stroke="none"/>)",
                        plot_left, plot_top, plot_right - plot_left, plot_bottom - plot_top));
    for (int decade = axes.x_low; decade < axes.x_high; ++decade) {
        for (int step = 2; step <= 9; ++step) {
            const double x = axes.px(step * std::pow(10.0, decade));
            svg.line(x, plot_top, x, plot_bottom, "#eeeeee", 0.5);
        }
    }
    for (int decade = axes.y_low; decade < axes.y_high; ++decade) {
        for (int step = 2; step <= 9; ++step) {
            const double y = axes.py(step * std::pow(10.0, decade));
            svg.line(plot_left, y, plot_right, y, "#eeeeee", 0.5);
        }
    }
    for (int decade = axes.x_low; decade <= axes.x_high; ++decade) {
        const double x = axes.px(std::pow(10.0, decade));
        svg.line(x, plot_top, x, plot_bottom, "#cccccc", 0.8);
        svg.line(x, plot_bottom, x, plot_bottom + 5, "#333333", 1);
        svg.text(x, plot_bottom + 19, format_decade(decade), R"(text-anchor="middle" class="tick")");
    }
    for (int decade = axes.y_low; decade <= axes.y_high; ++decade) {
        const double y = axes.py(std::pow(10.0, decade));
        svg.line(plot_left, y, plot_right, y, "#cccccc", 0.8);
        svg.line(plot_left - 5, y, plot_left, y, "#333333", 1);
        svg.text(plot_left - 8, y + 4, format_decade(decade), R"(text-anchor="end" class="tick")");
    }
    svg.raw(fmt::format(R"(<rect x="{:.1f}" y="{:.1f}" width="{:.1f}" height="{:.1f}" fill="none" stroke="#333333" stroke-width="1"/>)",
                        plot_left, plot_top, plot_right - plot_left, plot_bottom - plot_top));
    svg.text((plot_left + plot_right) / 2, plot_bottom + 42, "Arithmetic intensity [FLOP/byte]",
             R"(text-anchor="middle" class="axis")");
    const double y_mid = (plot_top + plot_bottom) / 2;
    svg.raw(fmt::format(R"svg(<text x="{:.1f}" y="{:.1f}" text-anchor="middle" class="axis" transform="rotate(-90 {:.1f} {:.1f})">Performance [GFLOP/s]</text>)svg",
                        28.0, y_mid, 28.0, y_mid));
}

// Rectangles already taken by horizontal labels, so roof labels never overprint each other.
class LabelSpace {
public:
    // Baseline y and horizontal extent of a label of height `font`.
    bool free(double left, double right, double baseline, double font) const {
        return std::none_of(boxes_.begin(), boxes_.end(), [&](const Box& box) {
            return left < box.right + 4 && right > box.left - 4 && baseline > box.top - 1 &&
                   baseline - font < box.bottom + 1;
        });
    }
    void take(double left, double right, double baseline, double font) {
        boxes_.push_back({left, right, baseline - font, baseline});
    }

private:
    struct Box {
        double left, right, top, bottom;
    };
    std::vector<Box> boxes_;
};

std::string runs_phrase(const Selection& s) {
    std::set<int> runs;
    for (auto* c : s.top_compute) if (c->stats.runs > 0) runs.insert(c->stats.runs);
    for (const auto& b : s.bandwidth) if (b.roof->stats.runs > 0) runs.insert(b.roof->stats.runs);
    if (runs.empty()) return "median of repeated runs";
    if (runs.size() == 1) return fmt::format("median of {} runs", *runs.begin());
    return fmt::format("median of {} to {} runs", *runs.begin(), *runs.rbegin());
}

} // namespace

std::string render_roofline_svg(const MachineModel& model) {
    const Selection s = select_roofs(model);
    const Axes axes = choose_axes(s);
    SvgWriter svg;

    svg.raw(fmt::format(R"(<svg xmlns="http://www.w3.org/2000/svg" width="{0}" height="{1}" viewBox="0 0 {0} {1}" font-family="DejaVu Sans, Helvetica, Arial, sans-serif">)",
                        canvas_width, canvas_height));
    const std::string cpu_name = model.cpu.model.empty() ? "unknown CPU" : model.cpu.model;
    const int threads = s.compute_threads > 0 ? s.compute_threads : s.memory_threads;
    const std::string thread_text = fmt::format("{} thread{}", threads, threads == 1 ? "" : "s");
    svg.raw(fmt::format("<title>Roofline of {}, {}</title>", xml_escape(cpu_name), thread_text));
    svg.raw("<style>text{fill:#222222;font-size:12px}.tick{font-size:11px;fill:#444444}"
            ".axis{font-size:13px}.title{font-size:17px;font-weight:bold}.small{font-size:10px}"
            ".footer{font-size:11px;fill:#555555}.partial{font-size:15px;font-weight:bold;fill:#ffffff}</style>");
    svg.raw(fmt::format(R"(<rect width="{}" height="{}" fill="#ffffff"/>)", canvas_width, canvas_height));

    svg.text(plot_left, 30, fmt::format("Roofline: {}, {}", cpu_name, thread_text), R"(class="title")");
    if (!model.environment.hostname.empty() || !model.environment.mode.empty()) {
        std::string subtitle = model.environment.hostname;
        if (!model.environment.mode.empty()) {
            subtitle += (subtitle.empty() ? "" : ", ") + model.environment.mode + " mode";
        }
        svg.text(plot_left, 50, subtitle, R"(class="footer")");
    }
    if (model.partial) {
        svg.raw(fmt::format(R"(<rect x="{:.1f}" y="38" width="330" height="26" rx="4" fill="#c0392b"/>)",
                            plot_right - 330));
        svg.text(plot_right - 165, 56, "PARTIAL RUN: some roofs are missing",
                 R"(text-anchor="middle" class="partial")");
    }

    draw_grid(svg, axes);

    if (s.top_compute.empty() && s.bandwidth.empty()) {
        svg.text((plot_left + plot_right) / 2, (plot_top + plot_bottom) / 2, "no roofs measured",
                 R"(text-anchor="middle" class="axis")");
    }

    LabelSpace label_space;
    const double highest_bandwidth = s.bandwidth.empty() ? 0 : std::max_element(
        s.bandwidth.begin(), s.bandwidth.end(),
        [](const auto& a, const auto& b) { return a.roof->gbs < b.roof->gbs; })->roof->gbs;
    // Where a horizontal roof starts: on the steepest bandwidth roof, as in min(peak, bw * I).
    auto roof_start = [&](double gflops) {
        return highest_bandwidth > 0 ? std::max(axes.x_min(), gflops / highest_bandwidth) : axes.x_min();
    };
    // Right-aligned label for a horizontal roof at pixel height y: above the line at the
    // right edge, else below it; main roofs may then move left along their line, ceilings
    // not (their left part runs through the bandwidth roofs). Returns (right end, baseline).
    auto place_roof_label = [&](double y, double width, double font, double line_start,
                                bool may_move_left) -> std::optional<std::pair<double, double>> {
        for (double right = plot_right - 6; right - width > line_start + 4; right -= width + 24) {
            if (right < plot_right - 6 && !may_move_left) break;
            for (double baseline : {y - 5, y + font + 3}) {
                if (label_space.free(right - width, right, baseline, font)) {
                    label_space.take(right - width, right, baseline, font);
                    return std::make_pair(right, baseline);
                }
            }
        }
        return std::nullopt;
    };

    // Main roofs claim their label space first; lower ceilings take what is left.
    std::vector<std::pair<double, double>> top_label_positions;
    for (auto* roof : s.top_compute) {
        const double y = axes.py(roof->gflops);
        const double width = text_width(compute_label(*roof), label_font);
        auto position = place_roof_label(y, width, label_font, plot_left, true);
        top_label_positions.push_back(position.value_or(std::make_pair(plot_right - 6, y - 5)));
    }

    // Lower ceilings are drawn first, so the main roofs lie on top of them.
    for (auto* ceiling : s.ceilings) {
        const double y = axes.py(ceiling->gflops);
        const auto label = ceiling_label(*ceiling);
        const double start = axes.px(roof_start(ceiling->gflops));
        const auto position = place_roof_label(y, text_width(label, small_font), small_font, start, false);
        if (!position) continue; // no room for its label: leave the ceiling out
        svg.line(start, y, plot_right, y, ceiling_colour, 1, "5 4");
        svg.text(position->first, position->second, label, R"(text-anchor="end" class="small" style="fill:#6f6f6f")");
    }

    for (std::size_t i = 0; i < s.top_compute.size(); ++i) {
        const auto* roof = s.top_compute[i];
        const std::string_view colour = roof->precision == "dp"   ? dp_colour
                                        : roof->precision == "sp" ? sp_colour
                                                                  : other_precision_colour;
        const double y = axes.py(roof->gflops);
        svg.line(axes.px(roof_start(roof->gflops)), y, plot_right, y, colour, 2.5);
        svg.text(top_label_positions[i].first, top_label_positions[i].second, compute_label(*roof),
                 fmt::format(R"(text-anchor="end" font-weight="bold" style="fill:{}")", colour));
    }

    std::vector<std::array<double, 4>> slanted_labels; // u_left, u_right, v_top, v_bottom
    for (const auto& b : s.bandwidth) {
        const double bw = b.roof->gbs;
        const double x_start = std::max(axes.x_min(), axes.y_min() / bw);
        const double x_end = s.top_peak > 0 ? s.top_peak / bw : std::min(axes.x_max(), axes.y_max() / bw);
        if (!(x_end > x_start)) continue;
        const double x1 = axes.px(x_start), y1 = axes.py(bw * x_start);
        const double x2 = axes.px(x_end), y2 = axes.py(bw * x_end);
        svg.line(x1, y1, x2, y2, b.colour, 2);

        // Label along the line, ending a little before the ridge so the ridge marker
        // stays clear; moved further down the line while it would overprint the label
        // of a close neighbour. All bandwidth roofs are parallel, so labels are compared
        // in a frame rotated with them: u along the lines, v across.
        const double angle = std::atan2(y2 - y1, x2 - x1);
        const double cos_a = std::cos(angle), sin_a = std::sin(angle);
        const double label_end_x = b.ridge_intensity > 0 ? std::min(axes.px(b.ridge_intensity), x2) : x2;
        const double usable_length = (label_end_x - x1) / cos_a;
        const auto label = bandwidth_label(*b.roof);
        const double width = text_width(label, label_font);
        const double line_u = x1 * cos_a + y1 * sin_a;
        const double line_v = -x1 * sin_a + y1 * cos_a;
        const double v_top = line_v - 5 - label_font, v_bottom = line_v - 2;

        double label_start = 4; // along the line, from its visible start
        for (double end = usable_length - 24; end - width >= 4; end -= width + 16) {
            const double u_left = line_u + end - width, u_right = line_u + end;
            const bool clash = std::any_of(slanted_labels.begin(), slanted_labels.end(), [&](const auto& box) {
                return u_left < box[1] + 6 && u_right > box[0] - 6 && v_top < box[3] && v_bottom > box[2];
            });
            if (!clash) {
                label_start = end - width;
                break;
            }
        }
        slanted_labels.push_back({line_u + label_start, line_u + label_start + width, v_top, v_bottom});
        const double ax = x1 + label_start * cos_a;
        const double ay = y1 + label_start * sin_a;
        const double degrees = angle * 180.0 / std::numbers::pi;
        svg.raw(fmt::format(R"svg(<text x="{:.1f}" y="{:.1f}" dy="-5" font-weight="bold" style="fill:{}" transform="rotate({:.2f} {:.1f} {:.1f})">{}</text>)svg",
                            ax, ay, b.colour, degrees, ax, ay, xml_escape(label)));
    }

    // Ridge points on the reference roof. Their intensities are read off the
    // x axis (dotted drop line, label at the bottom), where nothing else is drawn.
    if (s.reference) {
        std::vector<const BandwidthRoof*> ridges;
        for (const auto& b : s.bandwidth) ridges.push_back(&b);
        std::stable_sort(ridges.begin(), ridges.end(),
                         [](auto* a, auto* b) { return a->ridge_intensity < b->ridge_intensity; });
        const double y = axes.py(s.reference->gflops);
        double previous_label_x = -1e9;
        for (auto* ridge : ridges) {
            const double x = axes.px(ridge->ridge_intensity);
            svg.raw(fmt::format(R"(<line x1="{0:.1f}" y1="{1:.1f}" x2="{0:.1f}" y2="{2:.1f}" stroke="{3}" stroke-width="1" stroke-dasharray="2 3" stroke-opacity="0.7"/>)",
                                x, y, plot_bottom, ridge->colour));
            svg.raw(fmt::format(R"(<circle cx="{:.1f}" cy="{:.1f}" r="4.5" fill="{}" stroke="#ffffff" stroke-width="1.2" class="ridge"/>)",
                                x, y, ridge->colour));
            // Vertical text sits left of its drop line; close ridges push their labels apart.
            const double label_x = std::max(x - 3, previous_label_x + small_font + 2);
            previous_label_x = label_x;
            const double label_y = plot_bottom - 5;
            svg.raw(fmt::format(R"svg(<text x="{0:.1f}" y="{1:.1f}" class="small" style="fill:{2}" transform="rotate(-90 {0:.1f} {1:.1f})">{3}</text>)svg",
                                label_x, label_y, ridge->colour,
                                xml_escape(fmt::format("{:.3g} FLOP/B", ridge->ridge_intensity))));
        }
    }

    const std::string timestamp = model.environment.timestamp.empty() ? "at an unknown time" : model.environment.timestamp;
    svg.text(plot_left, canvas_height - 40,
             fmt::format("measured {}; bandwidth in nominal bytes; {}", timestamp, runs_phrase(s)),
             R"(class="footer")");
    std::string second_footer = fmt::format("roofs at {}; ridge points on the {} peak", thread_text,
                                            s.reference ? upper(s.reference->precision) : std::string("compute"));
    if (!model.environment.tool_version.empty()) {
        second_footer += "; roofline " + model.environment.tool_version;
    }
    if (model.partial) second_footer += "; PARTIAL RUN (interrupted)";
    svg.text(plot_left, canvas_height - 22, second_footer, R"(class="footer")");
    svg.raw("</svg>");
    return svg.take();
}

} // namespace roofline
