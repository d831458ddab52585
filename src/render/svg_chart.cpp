#include "render/svg_chart.hpp"

#include "render/chart.hpp"
#include "render/markup_escape.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <iterator>

namespace roofline {
namespace {

class SvgWriter {
public:
    explicit SvgWriter(bool interactive) : interactive_(interactive) { out_.reserve(1 << 16); }

    void raw(std::string_view text) {
        out_ += text;
        out_ += '\n';
    }

    // `attributes` are ours (numbers, colours, classes); `content` is escaped.
    void text(double x, double y, std::string_view content, std::string_view attributes) {
        fmt::format_to(std::back_inserter(out_), R"(<text x="{:.1f}" y="{:.1f}" {}>{}</text>)", x, y, attributes,
                       xml_escape(content));
        out_ += '\n';
    }

    void label(const PlacedLabel& label, std::string_view attributes) {
        std::string extra(attributes);
        if (label.anchor_end) extra += R"( text-anchor="end")";
        if (label.angle != 0) {
            fmt::format_to(std::back_inserter(out_),
                           R"svg(<text x="{0:.1f}" y="{1:.1f}" transform="rotate({2:.2f} {0:.1f} {1:.1f})" {3}>{4}</text>)svg",
                           label.x, label.y, label.angle, extra, xml_escape(label.text));
        } else {
            fmt::format_to(std::back_inserter(out_), R"(<text x="{:.1f}" y="{:.1f}" {}>{}</text>)", label.x, label.y,
                           extra, xml_escape(label.text));
        }
        out_ += '\n';
    }

    void line(double x1, double y1, double x2, double y2, std::string_view stroke, double width,
              std::string_view extra = "") {
        fmt::format_to(std::back_inserter(out_),
                       R"(<line x1="{:.1f}" y1="{:.1f}" x2="{:.1f}" y2="{:.1f}" stroke="{}" stroke-width="{}"{}{}/>)",
                       x1, y1, x2, y2, stroke, width, extra.empty() ? "" : " ", extra);
        out_ += '\n';
    }

    bool interactive() const { return interactive_; }
    std::string& buffer() { return out_; }
    std::string take() { return std::move(out_); }

private:
    bool interactive_;
    std::string out_;
};

std::string machine_class(std::size_t machine) { return fmt::format("m{}", machine); }

std::string point_class(const PlottedPoint& point) {
    return point.series >= 0 ? fmt::format("s{}", point.series) : std::string("pfree");
}

void draw_regions(SvgWriter& svg, const ChartLayout& layout) {
    const Canvas& c = layout.canvas;
    for (const auto& region : layout.regions) {
        const double x1 = layout.px(region.from), x2 = layout.px(region.to);
        fmt::format_to(std::back_inserter(svg.buffer()),
                       R"(<rect x="{:.1f}" y="{:.1f}" width="{:.1f}" height="{:.1f}" fill="{}" class="region"/>)",
                       x1, c.plot_top, x2 - x1, c.plot_bottom - c.plot_top, region.colour);
        svg.buffer() += '\n';
        if (region.has_label) svg.label(region.label, R"(class="small region-name")");
    }
}

void draw_grid(SvgWriter& svg, const ChartLayout& layout) {
    const Canvas& c = layout.canvas;
    for (double value : layout.x.minor) svg.line(layout.px(value), c.plot_top, layout.px(value), c.plot_bottom, "#eeeeee", 0.5);
    for (double value : layout.y.minor) svg.line(c.plot_left, layout.py(value), c.plot_right, layout.py(value), "#eeeeee", 0.5);
    for (const auto& tick : layout.x.decades) {
        const double x = layout.px(tick.value);
        svg.line(x, c.plot_top, x, c.plot_bottom, "#cccccc", 0.8);
        svg.line(x, c.plot_bottom, x, c.plot_bottom + 5, "#333333", 1);
        svg.text(x, c.plot_bottom + 19, tick.text, R"(text-anchor="middle" class="tick")");
    }
    for (const auto& tick : layout.y.decades) {
        const double y = layout.py(tick.value);
        svg.line(c.plot_left, y, c.plot_right, y, "#cccccc", 0.8);
        svg.line(c.plot_left - 5, y, c.plot_left, y, "#333333", 1);
        svg.text(c.plot_left - 8, y + 4, tick.text, R"(text-anchor="end" class="tick")");
    }
    svg.text((c.plot_left + c.plot_right) / 2, c.plot_bottom + 42, layout.x.title, R"(text-anchor="middle" class="axis")");
    const double y_mid = (c.plot_top + c.plot_bottom) / 2;
    fmt::format_to(std::back_inserter(svg.buffer()),
                   R"svg(<text x="28.0" y="{0:.1f}" text-anchor="middle" class="axis" transform="rotate(-90 28.0 {0:.1f})">{1}</text>)svg",
                   y_mid, xml_escape(layout.y.title));
    svg.buffer() += '\n';
}

void draw_frame(SvgWriter& svg, const Canvas& c) {
    fmt::format_to(std::back_inserter(svg.buffer()),
                   R"(<rect x="{:.1f}" y="{:.1f}" width="{:.1f}" height="{:.1f}" fill="none" stroke="#333333" stroke-width="1"/>)",
                   c.plot_left, c.plot_top, c.plot_right - c.plot_left, c.plot_bottom - c.plot_top);
    svg.buffer() += '\n';
}

void draw_lines(SvgWriter& svg, const ChartLayout& layout) {
    for (std::size_t i = 0; i < layout.lines.size(); ++i) {
        const ChartLine& line = layout.lines[i];
        const bool ceiling = is_ceiling(line.kind);
        const bool guide = line.kind == LineKind::intensity_line;
        const std::string classes = guide ? "guide" : machine_class(line.machine) + (ceiling ? " ceiling" : " roof");
        const double width = guide ? 1 : ceiling ? 1.2 : line.kind == LineKind::compute_roof ? 2.5 : 2;
        const std::string_view dashes = guide ? R"(stroke-dasharray="3 3")" : ceiling ? R"(stroke-dasharray="6 4")" : "";
        const double x1 = layout.px(line.x1), y1 = layout.py(line.y1), x2 = layout.px(line.x2), y2 = layout.py(line.y2);
        if (svg.interactive()) {
            fmt::format_to(std::back_inserter(svg.buffer()), R"(<g class="{}" data-tip="l{}">)", classes, i);
            svg.buffer() += '\n';
            svg.line(x1, y1, x2, y2, line.colour, width, dashes);
            // Wide and invisible: thin lines are hard to hover.
            svg.line(x1, y1, x2, y2, "transparent", 9, R"(class="hit")");
        } else {
            fmt::format_to(std::back_inserter(svg.buffer()), R"(<g class="{}">)", classes);
            svg.buffer() += '\n';
            svg.line(x1, y1, x2, y2, line.colour, width, dashes);
        }
        if (line.has_label) {
            const std::string_view weight = ceiling || guide ? "" : R"( font-weight="bold")";
            svg.label(line.label, fmt::format(R"(style="fill:{}"{} class="halo{}")", ceiling || guide ? "#555555" : line.colour, weight,
                                              line.label.small ? " small" : ""));
        }
        svg.raw("</g>");
    }
}

void draw_ridges(SvgWriter& svg, const ChartLayout& layout) {
    const Canvas& c = layout.canvas;
    for (std::size_t i = 0; i < layout.ridges.size(); ++i) {
        const RidgeMark& ridge = layout.ridges[i];
        const double x = layout.px(ridge.intensity), y = layout.py(ridge.performance);
        if (svg.interactive()) fmt::format_to(std::back_inserter(svg.buffer()), R"(<g class="{}" data-tip="r{}">)", machine_class(ridge.machine), i);
        else fmt::format_to(std::back_inserter(svg.buffer()), R"(<g class="{}">)", machine_class(ridge.machine));
        svg.buffer() += '\n';
        fmt::format_to(std::back_inserter(svg.buffer()),
                       R"(<line x1="{0:.1f}" y1="{1:.1f}" x2="{0:.1f}" y2="{2:.1f}" stroke="{3}" stroke-width="1" stroke-dasharray="2 3" stroke-opacity="0.7"/>)",
                       x, y, c.plot_bottom, ridge.colour);
        svg.buffer() += '\n';
        fmt::format_to(std::back_inserter(svg.buffer()),
                       R"(<circle cx="{:.1f}" cy="{:.1f}" r="4.5" fill="{}" stroke="#ffffff" stroke-width="1.2" class="ridge"/>)",
                       x, y, ridge.colour);
        svg.buffer() += '\n';
        if (ridge.has_label) svg.label(ridge.label, fmt::format(R"(class="small halo" style="fill:{}")", ridge.colour));
        svg.raw("</g>");
    }
}

// A marker shape centred on (x, y), `r` its half size.
void draw_shape(std::string& out, MarkerShape shape, double x, double y, double r, std::string_view paint) {
    switch (shape) {
    case MarkerShape::circle:
        fmt::format_to(std::back_inserter(out), R"(<circle cx="{:.1f}" cy="{:.1f}" r="{:.1f}" {}/>)", x, y, r, paint);
        break;
    case MarkerShape::square:
        fmt::format_to(std::back_inserter(out), R"(<rect x="{:.1f}" y="{:.1f}" width="{:.1f}" height="{:.1f}" {}/>)",
                       x - r * 0.85, y - r * 0.85, r * 1.7, r * 1.7, paint);
        break;
    case MarkerShape::diamond:
        fmt::format_to(std::back_inserter(out), R"(<path d="M{:.1f} {:.1f}l{:.1f} {:.1f} {:.1f} {:.1f} {:.1f} {:.1f}z" {}/>)",
                       x, y - r * 1.2, r * 1.2, r * 1.2, -r * 1.2, r * 1.2, -r * 1.2, -r * 1.2, paint);
        break;
    case MarkerShape::triangle:
        fmt::format_to(std::back_inserter(out), R"(<path d="M{:.1f} {:.1f}L{:.1f} {:.1f}L{:.1f} {:.1f}z" {}/>)", x,
                       y - r * 1.2, x + r * 1.1, y + r * 0.8, x - r * 1.1, y + r * 0.8, paint);
        break;
    case MarkerShape::cross: {
        // Drawn by its strokes alone: a wider stroke than the paint's (an attribute given twice
        // makes the SVG invalid XML; browsers then show an error instead of the chart).
        constexpr std::string_view attribute = " stroke-width=\"";
        std::string strokes(paint);
        if (const auto at = strokes.find(attribute); at != std::string::npos)
            strokes.erase(at, strokes.find('"', at + attribute.size()) + 1 - at);
        fmt::format_to(std::back_inserter(out),
                       R"(<path d="M{:.1f} {:.1f}l{:.1f} {:.1f}M{:.1f} {:.1f}l{:.1f} {:.1f}" {} stroke-width="2"/>)",
                       x - r, y - r, 2 * r, 2 * r, x - r, y + r, 2 * r, -2 * r, strokes);
        break;
    }
    }
    out += '\n';
}

void draw_points(SvgWriter& svg, const ChartLayout& layout) {
    std::string& out = svg.buffer();
    for (const auto& series : layout.series) {
        if (series.points.size() < 2) continue;
        fmt::format_to(std::back_inserter(out), R"(<polyline class="s{}" fill="none" stroke="{}" stroke-width="1.3" stroke-opacity="0.8" points=")",
                       &series - layout.series.data(), series.colour);
        for (std::size_t index : series_path(series)) {
            const Marker& m = layout.markers[layout.points[index].markers.front()];
            fmt::format_to(std::back_inserter(out), "{:.1f},{:.1f} ", layout.px(m.intensity), layout.py(m.performance));
        }
        out += "\"/>\n";
    }
    const double r = layout.canvas.marker_radius;
    for (std::size_t i = 0; i < layout.points.size(); ++i) {
        const PlottedPoint& point = layout.points[i];
        if (svg.interactive()) fmt::format_to(std::back_inserter(out), R"(<g class="{} pt" data-tip="p{}">)", point_class(point), i);
        else fmt::format_to(std::back_inserter(out), R"(<g class="{}">)", point_class(point));
        out += '\n';
        if (point.markers.size() > 1) {
            // CARM: the levels of one point share its performance; join them.
            double low = layout.markers[point.markers.front()].intensity, high = low;
            for (std::size_t index : point.markers) {
                low = std::min(low, layout.markers[index].intensity);
                high = std::max(high, layout.markers[index].intensity);
            }
            const double y = layout.py(point.performance);
            svg.line(layout.px(low), y, layout.px(high), y, point.colour, 1, R"(stroke-opacity="0.6")");
        }
        // The primary marker last, on top: levels of equal intensity share a spot.
        for (auto it = point.markers.rbegin(); it != point.markers.rend(); ++it) {
            const Marker& m = layout.markers[*it];
            const std::string paint = m.primary
                                          ? fmt::format(R"(fill="{0}" stroke="#ffffff" stroke-width="0.8")", point.colour)
                                          : fmt::format(R"(fill="#ffffff" stroke="{0}" stroke-width="1.5")", point.colour);
            draw_shape(out, m.shape, layout.px(m.intensity), layout.py(m.performance), r, paint);
        }
        if (point.has_leader)
            svg.line(point.leader_x1, point.leader_y1, point.leader_x2, point.leader_y2, point.colour, 0.7,
                     R"(stroke-opacity="0.8" class="leader")");
        if (point.has_label)
            svg.label(point.label, point.tag.empty() ? R"(class="plabel halo")" : R"(class="plabel halo" font-weight="bold")");
        svg.raw("</g>");
    }
}

void draw_legend(SvgWriter& svg, const ChartLayout& layout) {
    std::string& out = svg.buffer();
    for (const auto& item : layout.legend) {
        switch (item.kind) {
        case LegendItem::Kind::machine:
            fmt::format_to(std::back_inserter(out), R"(<g class="legend m{}">)", item.index);
            svg.line(item.x - 8, item.y, item.x + 8, item.y, item.colour, 2.5);
            break;
        case LegendItem::Kind::series:
            fmt::format_to(std::back_inserter(out), R"(<g class="legend s{}">)", item.index);
            draw_shape(out, MarkerShape::circle, item.x, item.y, 4, fmt::format(R"(fill="{}")", item.colour));
            break;
        case LegendItem::Kind::level_shape:
            out += R"(<g class="legend">)";
            draw_shape(out, item.shape, item.x, item.y, 4, R"(fill="#ffffff" stroke="#333333" stroke-width="1.5")");
            break;
        case LegendItem::Kind::roof:
            // A roof whose name is here, not on the plot (its tag there).
            fmt::format_to(std::back_inserter(out), R"(<g class="legend {}">)",
                           machine_class(layout.lines[item.index].machine));
            svg.line(item.x - 8, item.y, item.x + 8, item.y, item.colour, 2);
            break;
        case LegendItem::Kind::point:
            // A point whose name is here, not by its marker (its number there).
            fmt::format_to(std::back_inserter(out), R"(<g class="legend {}">)", point_class(layout.points[item.index]));
            draw_shape(out, item.shape, item.x, item.y, 4, fmt::format(R"(fill="{}" stroke="#ffffff" stroke-width="0.8")", item.colour));
            break;
        }
        svg.text(item.x + 14, item.y + 4, item.text, "");
        svg.raw("</g>");
    }
}

void draw_titles(SvgWriter& svg, const ChartLayout& layout) {
    const Canvas& c = layout.canvas;
    svg.text(c.plot_left, 30, layout.title, R"(class="title")");
    if (!layout.subtitle.empty()) svg.text(c.plot_left, 50, layout.subtitle, R"(class="footer")");
    if (!layout.banner.empty()) {
        const double width = std::max(330.0, layout.banner.size() * 8.7 + 24);
        fmt::format_to(std::back_inserter(svg.buffer()), R"(<rect x="{:.1f}" y="38" width="{:.1f}" height="26" rx="4" fill="#c0392b"/>)",
                       c.plot_right - width, width);
        svg.buffer() += '\n';
        svg.text(c.plot_right - width / 2, 56, layout.banner, R"(text-anchor="middle" class="partial")");
    }
    std::vector<std::string> lines = layout.footer;
    lines.insert(lines.end(), layout.notes.begin(), layout.notes.end());
    double y = c.height - 22 - 18 * (static_cast<double>(std::max<std::size_t>(lines.size(), 2)) - 1);
    if (lines.size() == 1) y += 18; // one line sits on the bottom row
    for (const auto& line : lines) {
        svg.text(c.plot_left, y, line, R"(class="footer")");
        y += 18;
    }
}

} // namespace

std::string svg_from_layout(const ChartLayout& layout, bool interactive) {
    const Canvas& c = layout.canvas;
    SvgWriter svg(interactive);
    svg.raw(fmt::format(R"(<svg xmlns="http://www.w3.org/2000/svg" width="{0}" height="{1}" viewBox="0 0 {0} {1}" font-family="DejaVu Sans, Helvetica, Arial, sans-serif" class="roofline-chart">)",
                        c.width, c.height));
    svg.raw(fmt::format("<title>{}</title>", xml_escape(layout.title)));
    svg.raw("<style>text{fill:#222222;font-size:12px}.tick{font-size:11px;fill:#444444}"
            ".axis{font-size:13px}.title{font-size:17px;font-weight:bold}.small{font-size:10px}"
            ".footer{font-size:11px;fill:#555555}.partial{font-size:15px;font-weight:bold;fill:#ffffff}"
            ".plabel{font-size:11px;fill:#222222}.region-name{fill:#777777}"
            // A white halo keeps labels readable where they cross a line.
            ".halo{stroke:#ffffff;stroke-width:3px;stroke-linejoin:round;paint-order:stroke}</style>");
    fmt::format_to(std::back_inserter(svg.buffer()), R"(<rect width="{}" height="{}" fill="#ffffff"/>)", c.width, c.height);
    svg.buffer() += '\n';
    draw_regions(svg, layout);
    draw_grid(svg, layout);
    if (layout.lines.empty() && layout.markers.empty()) {
        svg.text((c.plot_left + c.plot_right) / 2, (c.plot_top + c.plot_bottom) / 2, "no roofs measured",
                 R"(text-anchor="middle" class="axis")");
    }
    draw_lines(svg, layout);
    draw_ridges(svg, layout);
    draw_points(svg, layout);
    draw_frame(svg, c);
    draw_legend(svg, layout);
    draw_titles(svg, layout);
    svg.raw("</svg>");
    return svg.take();
}

std::string render_svg(const ChartInput& input) { return svg_from_layout(layout_chart(input, svg_canvas()), false); }

} // namespace roofline
