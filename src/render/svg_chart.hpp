// The SVG writer behind render_svg and render_html: one laid-out chart as an
// SVG document. Interactive adds what the HTML page's script needs: hover
// targets (data-tip="l3" line, "r2" ridge, "p5" point, indices into the page's
// data) and wide transparent strokes so thin lines are easy to hover.
// Every element also carries group classes the page toggles: m<i> (machine i),
// ceiling, s<j> (series j), pfree (points without a series), guide.
#pragma once

#include "render/chart_layout.hpp"

#include <string>

namespace roofline {

std::string svg_from_layout(const ChartLayout& layout, bool interactive);

} // namespace roofline
