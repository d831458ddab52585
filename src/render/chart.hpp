// Roofline charts: what to draw (ChartInput) and the four renderers that draw
// it. Every renderer goes through the same layout step (chart_layout.hpp), so
// the SVG, HTML, terminal and gnuplot charts show the same roofs, points and
// labels. Text taken from input files is data: each renderer escapes it for
// its own format.
#pragma once

#include "core/roofline.hpp"

#include <string>
#include <vector>

namespace roofline {

struct ChartInput {
    std::vector<Roofline> machines;     // several: overlaid, one colour each
    std::vector<Point> points;
    View view = View::carm;
    bool show_ceilings = true;
    bool show_bandwidth_ceilings = true; // bench's overview chart shows compute ceilings only
    std::vector<double> intensity_lines; // vertical guides at these intensities
    bool shade_regions = false;          // memory-only / both / compute-only regions of machines[0]
    std::string title;                   // empty: made from the machines
    std::string subtitle;
    std::vector<std::string> footer;     // lines under the chart (provenance)
    std::string banner;                  // prominent warning, e.g. an interrupted run
    // What the caller left out before drawing ("2 points above their roof left out"): notes
    // under the chart beside the layout's own, so the file says it, not only the terminal.
    std::vector<std::string> notes;
    // Further solid compute roofs of machines[0], e.g. the SP peak on a DP chart.
    std::vector<Roof> extra_peaks;
};

// A standalone SVG document (no external references).
std::string render_svg(const ChartInput& input);

// One self-contained HTML page: the SVG inline, data and script inline, works
// offline. Hover shows a roof's or point's numbers; checkboxes toggle the
// ceilings, each machine and each series.
std::string render_html(const ChartInput& input);

// A character chart `width` x `height` cells. Without colour: plain ASCII;
// with colour: ANSI colours and Unicode line characters.
std::string render_term(const ChartInput& input, int width, int height, bool color);

// One gnuplot script that carries its own data (inline data blocks, $name << EOD),
// so a single file is script plus data. Without a terminal set it draws on
// gnuplot's default; `gnuplot -e "out='chart.svg'" chart.gp` writes an SVG
// (likewise .png, .pdf, .txt for a dumb-terminal chart).
std::string render_gnuplot(const ChartInput& input);

} // namespace roofline
