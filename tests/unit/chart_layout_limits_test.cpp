// Charts of very many points (issue 10): every marker is drawn, labels are
// bounded, and lines stay obstacles for labels however they are indexed.
#include "render/chart_layout.hpp"

#include "chart_fixture.hpp"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>

using namespace roofline;
using namespace roofline::test;

namespace {

// A point on a grid of intensities and rates, under the fixture's roofs.
Point grid_point(int i) {
    const double intensity = 0.02 * std::pow(1.05, i % 150);
    const double gflops = std::min(0.3 * std::pow(1.03, i / 150), 20 * intensity);
    return fixture_point("kernel number " + std::to_string(i), "", gflops * 1e9, 1.0,
                         {{"DRAM", gflops * 1e9 / intensity}});
}

bool has_note(const ChartLayout& layout, const std::string& text) {
    for (const auto& note : layout.notes)
        if (note.find(text) != std::string::npos) return true;
    return false;
}

} // namespace

TEST(ChartLayoutLimits, ManyPointsDrawEveryMarkerAndBoundTheLabels) {
    auto input = fixture_input();
    input.points.clear();
    input.view = View::orm;
    constexpr int n = 6000;
    for (int i = 0; i < n; ++i) input.points.push_back(grid_point(i));
    const Canvas canvas = svg_canvas();
    const auto layout = layout_chart(input, canvas);
    ASSERT_EQ(layout.points.size(), static_cast<std::size_t>(n));
    EXPECT_EQ(layout.markers.size(), static_cast<std::size_t>(n));
    std::size_t labelled = 0;
    for (std::size_t i = 0; i < layout.points.size(); ++i) {
        // Names only: a point whose name had no room gets a number (counted apart).
        if (!layout.points[i].has_label || !layout.points[i].tag.empty()) continue;
        ++labelled;
        // Labels are tried for the first 5 x max_point_labels labelled points only.
        EXPECT_LT(i, 5 * canvas.max_point_labels) << layout.points[i].text;
    }
    EXPECT_GT(labelled, 0u);
    EXPECT_LE(labelled, canvas.max_point_labels);
    EXPECT_TRUE(has_note(layout, fmt::format("{} of {} point labels shown", labelled, n)));
}

TEST(ChartLayoutLimits, FewPointsAreAllTriedAsBefore) {
    auto input = fixture_input();
    const auto layout = layout_chart(input, svg_canvas());
    for (const auto& point : layout.points) EXPECT_TRUE(point.has_label) << point.text;
    EXPECT_FALSE(has_note(layout, "point labels shown"));
}

// A series line from corner to corner is registered in the cells it crosses,
// not its whole bounding rectangle: labels must still keep off it.
TEST(ChartLayoutLimits, LabelsKeepOffALongSlantedSeriesLine) {
    ChartInput input;
    input.machines = {fixture_machine()};
    input.view = View::orm;
    input.show_ceilings = false;
    const double low_i = 0.02, high_i = 50, low_g = 0.05, high_g = 50;
    input.points = {fixture_point("start", "diagonal", low_g * 1e9, 1.0, {{"DRAM", low_g * 1e9 / low_i}}),
                    fixture_point("end", "diagonal", high_g * 1e9, 1.0, {{"DRAM", high_g * 1e9 / high_i}})};
    // Points a little above its middle: the first spot tried for each label (to
    // the right) crosses the rising line, others do not.
    for (int k = 3; k <= 7; ++k) {
        const double t = k / 10.0;
        const double i = low_i * std::pow(high_i / low_i, t), g = 1.3 * low_g * std::pow(high_g / low_g, t);
        input.points.push_back(fixture_point("near the line " + std::to_string(k), "", g * 1e9, 1.0, {{"DRAM", g * 1e9 / i}}));
    }
    const auto layout = layout_chart(input, svg_canvas());
    ASSERT_EQ(layout.series.size(), 1u);
    const Marker& a = layout.markers[layout.points[layout.series[0].points.front()].markers.front()];
    const Marker& b = layout.markers[layout.points[layout.series[0].points.back()].markers.front()];
    const double x1 = layout.px(a.intensity), y1 = layout.py(a.performance);
    const double x2 = layout.px(b.intensity), y2 = layout.py(b.performance);
    std::size_t checked = 0;
    for (const auto& point : layout.points) {
        if (!point.has_label || point.series >= 0) continue;
        ++checked;
        const auto& label = point.label;
        const double width = static_cast<double>(label.text.size()) * layout.canvas.char_width;
        const double left = label.anchor_end ? label.x - width : label.x;
        const double top = label.y - 0.8 * layout.canvas.label_height, bottom = label.y + 0.2 * layout.canvas.label_height;
        for (int s = 0; s <= 2000; ++s) {
            const double x = x1 + (x2 - x1) * s / 2000.0, y = y1 + (y2 - y1) * s / 2000.0;
            const bool inside = x > left + 0.5 && x < left + width - 0.5 && y > top + 0.5 && y < bottom - 0.5;
            ASSERT_FALSE(inside) << point.text << " crosses the series line";
        }
    }
    EXPECT_EQ(checked, 5u);
}
