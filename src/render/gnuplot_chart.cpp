// The chart as one gnuplot script that carries its data in inline data blocks
// ($name << EOD ... EOD), for people with their own plotting pipelines.
//   gnuplot -p chart.gp                        a window
//   gnuplot -e "out='chart.svg'" chart.gp      also .png, .pdf, .txt (dumb terminal)
// Labels sit where the shared layout placed them for a 960x640 canvas, so
// they do not overlap at that size. Text from files is quoted for gnuplot
// (single quotes doubled, newlines removed, enhanced text off): it can never
// end a string and become a command.
#include "render/chart.hpp"
#include "render/chart_layout.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <iterator>
#include <map>
#include <tuple>

namespace roofline {
namespace {

// A gnuplot single-quoted string: only '' is special inside one.
std::string quote(std::string_view text) {
    std::string out = "'";
    for (char ch : text) {
        if (ch == '\'') out += "''";
        else if (static_cast<unsigned char>(ch) < 0x20) out += ' ';
        else out += ch;
    }
    return out + "'";
}

// A comment line: no newline may end it early.
std::string comment(std::string_view text) {
    std::string out = "# ";
    for (char ch : text) out += static_cast<unsigned char>(ch) < 0x20 ? ' ' : ch;
    return out + "\n";
}

int point_type(MarkerShape shape, bool filled) {
    switch (shape) {
    case MarkerShape::circle: return filled ? 7 : 6;
    case MarkerShape::square: return filled ? 5 : 4;
    case MarkerShape::diamond: return filled ? 13 : 12;
    case MarkerShape::triangle: return filled ? 9 : 8;
    case MarkerShape::cross: return 2;
    }
    return 7;
}

template <class... Args>
void append(std::string& out, fmt::format_string<Args...> format, Args&&... args) {
    fmt::format_to(std::back_inserter(out), format, std::forward<Args>(args)...);
}

long colour_number(const std::string& hex) {
    return hex.size() == 7 && hex[0] == '#' ? std::stol(hex.substr(1), nullptr, 16) : 0;
}

} // namespace

std::string render_gnuplot(const ChartInput& input) {
    const ChartLayout layout = layout_chart(input, svg_canvas());
    std::string out;

    out += comment(layout.title);
    out += "# Written by roofline plot: script and data in one file.\n";
    out += "#   gnuplot -p this.gp                      draws in a window\n";
    out += "#   gnuplot -e \"out='chart.svg'\" this.gp    writes .svg, .png, .pdf or .txt\n";
    for (const auto& line : layout.footer) out += comment(line);
    for (const auto& note : layout.notes) out += comment(note);
    std::string preamble = R"gp(if (exists("out")) {
    ext = strlen(out) > 4 ? out[strlen(out)-3:strlen(out)] : ""
    if (ext eq ".svg") { set terminal svg size @W@,@H@ font "DejaVu Sans,11" background rgb "white" }
    if (ext eq ".png") { set terminal pngcairo size @W@,@H@ font "DejaVu Sans,10" }
    if (ext eq ".pdf") { set terminal pdfcairo size 10in,6.67in font "DejaVu Sans,11" }
    if (ext eq ".txt") { set terminal dumb size 120,40 }
    set output out
}
set encoding utf8
set termoption noenhanced
set logscale xy 10
set format x "%g"
set format y "%g"
set mxtics 10
set mytics 10
set grid xtics ytics mxtics mytics lc rgb "#e4e4e4" lw 0.5, lc rgb "#f0f0f0" lw 0.5
set border lc rgb "#333333"
)gp";
    // The terminal the layout was made for (taller when the legend needs rows).
    for (const auto& [mark, value] : {std::pair{"@W@", layout.canvas.width}, std::pair{"@H@", layout.canvas.height}})
        for (std::size_t at; (at = preamble.find(mark)) != std::string::npos;)
            preamble.replace(at, 3, fmt::format("{:.0f}", value));
    out += preamble;
    // The plot area where the layout placed it, so labels land beside their lines.
    const Canvas& c = layout.canvas;
    append(out, "set lmargin at screen {:.4f}\nset rmargin at screen {:.4f}\n", c.plot_left / c.width, c.plot_right / c.width);
    append(out, "set tmargin at screen {:.4f}\nset bmargin at screen {:.4f}\n", 1 - c.plot_top / c.height,
           1 - c.plot_bottom / c.height);
    append(out, "set title {} noenhanced\n", quote(layout.title));
    append(out, "set xlabel {} noenhanced\n", quote(layout.x.title));
    append(out, "set ylabel {} noenhanced\n", quote(layout.y.title));
    append(out, "set xrange [{:g}:{:g}]\n", layout.x.min(), layout.x.max());
    append(out, "set yrange [{:g}:{:g}]\n", layout.y.min(), layout.y.max());

    int object = 1;
    for (const auto& region : layout.regions)
        append(out, "set object {} rect from {:.6g}, graph 0 to {:.6g}, graph 1 fc rgb '{}' fs solid 1.0 noborder behind\n",
             object++, region.from, region.to, region.colour);

    // Labels where the layout put them (canvas position back to data).
    int label_number = 1;
    auto label = [&](const PlacedLabel& placed, const std::string& colour, bool bold) {
        // gnuplot centres text vertically on its position; the layout gives a baseline.
        const double height = placed.small ? layout.canvas.small_label_height : layout.canvas.label_height;
        const double angle = placed.angle * 3.14159265358979 / 180;
        const double x = placed.x + 0.3 * height * std::sin(angle), y = placed.y - 0.3 * height * std::cos(angle);
        append(out, "set label {} {} at {:.6g}, {:.6g} {} rotate by {:.2f} textcolor rgb '{}' font ',{}' front noenhanced\n",
             label_number++, quote(placed.text), layout.intensity_at(x), layout.performance_at(y),
             placed.anchor_end ? "right" : "left", -placed.angle, colour,
             placed.small ? 8 : (bold ? 10 : 9));
    };
    for (const auto& region : layout.regions)
        if (region.has_label) label(region.label, "#777777", false);
    for (const auto& line : layout.lines)
        if (line.has_label) label(line.label, is_ceiling(line.kind) ? std::string("#555555") : line.colour, !is_ceiling(line.kind));
    for (const auto& ridge : layout.ridges)
        if (ridge.has_label) label(ridge.label, ridge.colour, false);
    int arrow = 1;
    for (const auto& point : layout.points) {
        if (point.has_label) label(point.label, "#222222", false);
        if (point.has_leader)  // a label placed away from its marker
            append(out, "set arrow {} from {:.6g}, {:.6g} to {:.6g}, {:.6g} nohead lw 0.6 lc rgb '{}' front\n", arrow++,
                   layout.intensity_at(point.leader_x1), layout.performance_at(point.leader_y1),
                   layout.intensity_at(point.leader_x2), layout.performance_at(point.leader_y2), point.colour);
    }
    if (!layout.banner.empty())
        append(out, "set label {} {} at graph 0.99, graph 1.04 right textcolor rgb '#c0392b' front noenhanced\n", label_number++,
             quote(layout.banner));

    // Data: each line a block of two rows, blocks apart by two blank lines (index n).
    out += "$lines << EOD\n";
    for (std::size_t i = 0; i < layout.lines.size(); ++i) {
        const auto& line = layout.lines[i];
        out += comment(fmt::format("{}: {}", i, line.text));
        append(out, "{:.6g} {:.6g}\n{:.6g} {:.6g}\n\n\n", line.x1, line.y1, line.x2, line.y2);
    }
    out += "EOD\n$ridges << EOD\n";
    for (const auto& ridge : layout.ridges)
        append(out, "{:.6g} {:.6g} {}\n", ridge.intensity, ridge.performance, colour_number(ridge.colour));
    // Markers grouped by what they look like: colour, shape, filled.
    std::map<std::tuple<std::string, int>, std::vector<std::size_t>> marker_groups;
    for (std::size_t i = 0; i < layout.markers.size(); ++i) {
        const auto& marker = layout.markers[i];
        marker_groups[{layout.points[marker.point].colour, point_type(marker.shape, marker.primary)}].push_back(i);
    }
    std::vector<std::tuple<std::string, int>> group_keys;
    out += "EOD\n$markers << EOD\n";
    for (const auto& [key, indices] : marker_groups) {
        group_keys.push_back(key);
        for (std::size_t i : indices) append(out, "{:.6g} {:.6g}\n", layout.markers[i].intensity, layout.markers[i].performance);
        out += "\n\n";
    }
    out += "EOD\n$joins << EOD\n";
    for (const auto& point : layout.points) {
        if (point.markers.size() < 2) continue;
        for (std::size_t i : point.markers)
            append(out, "{:.6g} {:.6g} {}\n", layout.markers[i].intensity, layout.markers[i].performance, colour_number(point.colour));
        out += "\n";
    }
    out += "EOD\n$series << EOD\n";
    for (const auto& series : layout.series) {
        for (std::size_t index : series_path(series)) {
            const auto& marker = layout.markers[layout.points[index].markers.front()];
            append(out, "{:.6g} {:.6g}\n", marker.intensity, marker.performance);
        }
        out += "\n\n";
    }
    out += "EOD\n";

    // The key: machines (when several) and series.
    std::vector<std::string> clauses;
    std::vector<bool> machine_titled(layout.machines.size(), false);
    for (std::size_t i = 0; i < layout.lines.size(); ++i) {
        const auto& line = layout.lines[i];
        const bool ceiling = is_ceiling(line.kind), guide = line.kind == LineKind::intensity_line;
        std::string title = "notitle";
        if (layout.multi_machine && !ceiling && !guide && !machine_titled[line.machine]) {
            machine_titled[line.machine] = true;
            title = "title " + quote(fmt::format("[{}] {}", line.machine + 1, layout.machines[line.machine].label));
        }
        clauses.push_back(fmt::format("$lines index {} with lines lw {} dt {} lc rgb '{}' {}", i,
                                      guide ? 1.0 : ceiling ? 1.2 : line.kind == LineKind::compute_roof ? 2.5 : 2.0,
                                      guide ? 3 : ceiling ? 2 : 1, line.colour, title));
    }
    if (!layout.ridges.empty()) clauses.push_back("$ridges using 1:2:3 with points pt 7 ps 0.9 lc rgb variable notitle");
    if (std::any_of(layout.points.begin(), layout.points.end(), [](auto& p) { return p.markers.size() > 1; }))
        clauses.push_back("$joins using 1:2:3 with lines lw 0.8 lc rgb variable notitle");
    for (std::size_t s = 0; s < layout.series.size(); ++s)
        clauses.push_back(fmt::format("$series index {} with lines lw 1.3 lc rgb '{}' title {}", s, layout.series[s].colour,
                                      quote("series " + layout.series[s].name)));
    for (std::size_t g = 0; g < group_keys.size(); ++g)
        clauses.push_back(fmt::format("$markers index {} with points pt {} ps 0.8 lc rgb '{}' notitle", g,
                                      std::get<1>(group_keys[g]), std::get<0>(group_keys[g])));
    // Roofs and points whose names had no room on the plot (a tag or number there): named in the key.
    bool named_in_key = false;
    for (const auto& item : layout.legend) {
        if (item.kind == LegendItem::Kind::roof)
            clauses.push_back(fmt::format("1/0 with lines lw 2 lc rgb '{}' title {}", item.colour, quote(item.text)));
        else if (item.kind == LegendItem::Kind::point)
            clauses.push_back(fmt::format("1/0 with points pt 7 ps 0.8 lc rgb '{}' title {}", item.colour, quote(item.text)));
        else continue;
        named_in_key = true;
    }
    const bool any_title = layout.multi_machine || !layout.series.empty() || named_in_key;
    out += any_title ? "set key outside bottom center horizontal noenhanced\n" : "unset key\n";
    if (clauses.empty()) {
        out += "plot 1/0 notitle\n";
    } else {
        out += "plot ";
        for (std::size_t i = 0; i < clauses.size(); ++i) out += (i ? ", \\\n     " : "") + clauses[i];
        out += "\n";
    }
    return out;
}

} // namespace roofline
