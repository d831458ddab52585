#include "render/chart_layout.hpp"
#include "render/chart.hpp"

#include "chart_fixture.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <set>

using namespace roofline;
using namespace roofline::test;

namespace {

bool near(double a, double b, double relative = 1e-6) { return std::fabs(a - b) <= relative * std::max(std::fabs(a), std::fabs(b)); }

const ChartLine* find_line(const ChartLayout& layout, const std::string& name) {
    for (const auto& line : layout.lines)
        if (line.name == name) return &line;
    return nullptr;
}

struct Rect {
    double left, right, top, bottom;
};

// Horizontal labels only (points, compute roofs): the box the layout reasons with.
Rect rect_of(const PlacedLabel& label, const Canvas& canvas) {
    const double width = static_cast<double>(label.text.size()) * (label.small ? canvas.small_char_width : canvas.char_width);
    const double height = label.small ? canvas.small_label_height : canvas.label_height;
    const double left = label.anchor_end ? label.x - width : label.x;
    return {left, left + width, label.y - 0.8 * height, label.y + 0.2 * height};
}

bool overlaps(const Rect& a, const Rect& b) {
    return a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
}

} // namespace

TEST(ChartLayout, AxesAreWholeDecadesCoveringRoofsAndPoints) {
    const auto layout = layout_chart(fixture_input(), svg_canvas());
    // At least 1/64 .. 64 FLOP/byte; dgemm's DRAM intensity (200) needs 1000.
    EXPECT_EQ(layout.x.low_decade, -2);
    EXPECT_EQ(layout.x.high_decade, 3);
    EXPECT_LE(layout.y.min(), 24 * 0.01);  // DRAM roof visible from the left edge
    EXPECT_GE(layout.y.max(), 128);        // twice the peak
    ASSERT_EQ(layout.x.decades.size(), 6u);
    EXPECT_EQ(layout.x.decades.front().text, "0.01");
    EXPECT_EQ(layout.x.decades.back().text, "1000");
    EXPECT_EQ(layout.x.minor.size(), 5u * 8u);
    EXPECT_EQ(layout.x.title, "Arithmetic intensity [FLOP/byte]");
    EXPECT_EQ(layout.y.title, "Performance [GFLOP/s]");
}

TEST(ChartLayout, RoofsEndAtTheRidgeAndEveryLineIsInsideTheAxes) {
    const auto layout = layout_chart(fixture_input(), svg_canvas());
    const auto* l1 = find_line(layout, "L1 load");
    ASSERT_NE(l1, nullptr);
    EXPECT_EQ(l1->kind, LineKind::bandwidth_roof);
    EXPECT_TRUE(near(l1->x1, 0.01));
    EXPECT_TRUE(near(l1->y1, 4.0));
    EXPECT_TRUE(near(l1->x2, 64.0 / 400));  // the ridge
    EXPECT_TRUE(near(l1->y2, 64.0));
    const auto* peak = find_line(layout, "DP peak");
    ASSERT_NE(peak, nullptr);
    EXPECT_TRUE(near(peak->x1, 64.0 / 400));  // starts on the steepest roof
    EXPECT_TRUE(near(peak->x2, layout.x.max()));
    const auto* ceiling = find_line(layout, "DRAM 1 thread");
    ASSERT_NE(ceiling, nullptr);
    EXPECT_EQ(ceiling->kind, LineKind::bandwidth_ceiling);
    EXPECT_TRUE(near(ceiling->x2, 64.0 / 12));  // meets the compute roof
    for (const auto& line : layout.lines) {
        EXPECT_TRUE(layout.x.contains(line.x1) && layout.x.contains(line.x2)) << line.name;
        EXPECT_TRUE(layout.y.contains(line.y1) && layout.y.contains(line.y2)) << line.name;
    }
    EXPECT_EQ(find_line(layout, "DP peak")->text, "DP peak 64.0 GFLOP/s");
    EXPECT_EQ(find_line(layout, "no FMA")->text, "no FMA 32.0 GFLOP/s");
}

TEST(ChartLayout, ClipsALineThatLeavesThePlot) {
    auto input = fixture_input();
    input.points.clear();
    input.intensity_lines.clear();
    // A bandwidth so low that the roof enters the plot through the bottom edge
    // (the y axis spans at most 8 decades for roofs alone).
    input.machines[0].bandwidth.push_back({"PCIe", "PCIe", 1e-6});
    const auto layout = layout_chart(input, svg_canvas());
    EXPECT_EQ(layout.y.high_decade - layout.y.low_decade, 8);
    const auto* pcie = find_line(layout, "PCIe");
    ASSERT_NE(pcie, nullptr);
    EXPECT_TRUE(near(pcie->y1, layout.y.min()));
    EXPECT_TRUE(near(pcie->x1, layout.y.min() / 1e-6));
    EXPECT_TRUE(near(pcie->x2, 64 / 1e-6));  // up to its ridge
}

TEST(ChartLayout, RidgePointsArePeakOverBandwidth) {
    const auto layout = layout_chart(fixture_input(), svg_canvas());
    ASSERT_EQ(layout.ridges.size(), 3u);
    EXPECT_TRUE(near(layout.ridges[0].intensity, 0.16));
    EXPECT_TRUE(near(layout.ridges[1].intensity, 0.32));
    EXPECT_TRUE(near(layout.ridges[2].intensity, 64.0 / 24));
    for (const auto& ridge : layout.ridges) EXPECT_TRUE(ridge.has_label);
}

TEST(ChartLayout, CarmPlacesOneMarkerPerLevelOrmOnlyDram) {
    auto input = fixture_input();
    const auto carm = layout_chart(input, svg_canvas());
    ASSERT_EQ(carm.points.size(), 4u);
    const auto& dgemm = carm.points[2];
    ASSERT_EQ(dgemm.markers.size(), 3u);
    EXPECT_EQ(carm.markers[dgemm.markers[0]].level, "L1");
    EXPECT_TRUE(carm.markers[dgemm.markers[0]].primary);
    EXPECT_TRUE(near(carm.markers[dgemm.markers[0]].intensity, 4.0));
    EXPECT_TRUE(near(carm.markers[dgemm.markers[1]].intensity, 20.0));
    EXPECT_EQ(carm.markers[dgemm.markers[2]].level, "DRAM");
    EXPECT_TRUE(near(carm.markers[dgemm.markers[2]].intensity, 200.0));
    EXPECT_FALSE(carm.markers[dgemm.markers[2]].primary);
    EXPECT_EQ(carm.markers[dgemm.markers[2]].shape, MarkerShape::triangle);
    for (std::size_t index : dgemm.markers) EXPECT_TRUE(near(carm.markers[index].performance, 40.0));

    input.view = View::orm;
    input.points.push_back(fixture_point("cache only", "", 1e9, 1, {{"L1", 1e9}}));
    const auto orm = layout_chart(input, svg_canvas());
    ASSERT_EQ(orm.points.size(), 4u);  // "cache only" has no DRAM bytes
    for (const auto& point : orm.points) {
        ASSERT_EQ(point.markers.size(), 1u);
        EXPECT_EQ(orm.markers[point.markers[0]].level, "DRAM");
    }
    EXPECT_TRUE(near(orm.markers[orm.points[2].markers[0]].intensity, 200.0));
    ASSERT_FALSE(orm.notes.empty());
    EXPECT_NE(orm.notes.front().find("1 point without DRAM bytes"), std::string::npos);
    // ORM draws the DRAM roof only.
    EXPECT_EQ(find_line(orm, "L1 load"), nullptr);
    EXPECT_NE(find_line(orm, "DRAM copy"), nullptr);
    EXPECT_EQ(orm.x.title, "Operational intensity [FLOP/DRAM byte]");
}

TEST(ChartLayout, SeriesJoinTheirPointsInInputOrder) {
    const auto layout = layout_chart(fixture_input(), svg_canvas());
    ASSERT_EQ(layout.series.size(), 1u);
    EXPECT_EQ(layout.series[0].name, "triad");
    ASSERT_EQ(layout.series[0].points.size(), 2u);
    EXPECT_EQ(layout.points[layout.series[0].points[0]].text, "triad 16KiB");
    EXPECT_EQ(layout.points[layout.series[0].points[1]].text, "triad 1GiB");
    EXPECT_EQ(layout.points[0].colour, layout.points[1].colour);
    EXPECT_NE(layout.points[2].colour, layout.points[3].colour);  // loose points: a colour each
    EXPECT_EQ(layout.points[3].text, "Jacobi 7-pt");              // the label wins over the name
}

TEST(ChartLayout, PointLabelsNeverOverlapEachOtherOrRoofLabels) {
    auto input = fixture_input();
    // A crowded cluster: 300 points on a small grid of intensities and rates.
    for (int i = 0; i < 300; ++i) {
        const double intensity = 0.05 * std::pow(1.07, i % 60);
        const double gflops = 0.5 * std::pow(1.2, i / 60 + (i % 7) * 0.3);
        input.points.push_back(fixture_point("kernel number " + std::to_string(i), "", gflops * 1e9, 1.0,
                                             {{"DRAM", gflops * 1e9 / intensity}}));
    }
    input.view = View::orm;
    const auto layout = layout_chart(input, svg_canvas());
    std::vector<Rect> taken;
    for (const auto& line : layout.lines)
        if (line.has_label && line.label.angle == 0) taken.push_back(rect_of(line.label, layout.canvas));
    std::size_t labelled = 0;
    for (const auto& point : layout.points) {
        if (!point.has_label) continue;
        ++labelled;
        const Rect rect = rect_of(point.label, layout.canvas);
        EXPECT_GE(rect.left, layout.canvas.plot_left - 3);
        EXPECT_LE(rect.right, layout.canvas.plot_right + 3);
        for (const auto& other : taken) EXPECT_FALSE(overlaps(rect, other)) << point.text;
        taken.push_back(rect);
    }
    EXPECT_GT(labelled, 4u);
    EXPECT_LT(labelled, layout.points.size());  // not all fit, and that is said
    bool noted = false;
    for (const auto& note : layout.notes) noted = noted || note.find("point labels shown") != std::string::npos;
    EXPECT_TRUE(noted);
}

TEST(ChartLayout, SeveralMachinesGetDistinctColoursAndTaggedLabels) {
    ChartInput input;
    for (int m = 0; m < 10; ++m) input.machines.push_back(fixture_machine("CPU " + std::to_string(m), 1 + m * 0.5));
    const auto layout = layout_chart(input, svg_canvas());
    std::set<std::string> colours;
    for (const auto& style : layout.machines) colours.insert(style.colour);
    EXPECT_EQ(colours.size(), 10u);
    EXPECT_TRUE(layout.multi_machine);
    for (const auto& line : layout.lines) {
        if (line.kind == LineKind::intensity_line) continue;
        EXPECT_EQ(line.colour, layout.machines[line.machine].colour);
        EXPECT_EQ(line.text.rfind("[" + std::to_string(line.machine + 1) + "] ", 0), 0u) << line.text;
    }
    // Every machine is in the legend.
    std::size_t machine_items = 0;
    for (const auto& item : layout.legend) machine_items += item.kind == LegendItem::Kind::machine;
    EXPECT_EQ(machine_items, 10u);
}

TEST(ChartLayout, ShadedRegionsAgreeWithTheAnalysis) {
    auto input = fixture_input();
    input.shade_regions = true;
    input.view = View::orm;
    const auto layout = layout_chart(input, svg_canvas());
    ASSERT_EQ(layout.regions.size(), 3u);
    for (const auto& region : layout.regions) {
        const double middle = std::sqrt(region.from * region.to);
        // A point at this DRAM intensity: analyze() must name the same region.
        const auto probe = fixture_point("probe", "", 1e9, 1, {{"DRAM", 1e9 / middle}});
        EXPECT_EQ(analyze(input.machines[0], probe, View::orm).region, region.region) << region.name;
    }
    EXPECT_TRUE(near(layout.regions[0].to, 8.0 / 24));   // lowest compute ceiling / DRAM roof
    EXPECT_TRUE(near(layout.regions[1].to, 64.0 / 12));  // peak / lowest DRAM ceiling
}

TEST(ChartLayout, TerminalCanvasUsesCellsAndHorizontalText) {
    const auto layout = layout_chart(fixture_input(), terminal_canvas(80, 24));
    for (const auto& line : layout.lines) {
        if (!line.has_label) continue;
        EXPECT_EQ(line.label.angle, 0) << line.name;
    }
    EXPECT_NEAR(layout.px(layout.x.min()), 8, 1e-9);
    EXPECT_NEAR(layout.py(layout.y.min()), 20, 1e-9);
}

TEST(ChartLayout, HandlesNoMachinesAndBadNumbers) {
    ChartInput input;
    input.points = {fixture_point("zero time", "", 1e9, 0, {{"DRAM", 1e9}})};
    const auto layout = layout_chart(input, svg_canvas());
    EXPECT_TRUE(layout.points.empty());
    EXPECT_TRUE(layout.lines.empty());
    EXPECT_LT(layout.x.low_decade, layout.x.high_decade);
    EXPECT_LT(layout.y.low_decade, layout.y.high_decade);

    auto bad = fixture_input();
    bad.machines[0].bandwidth[0].value = std::nan("");
    bad.machines[0].ceilings[0].value = -1;
    const auto survived = layout_chart(bad, svg_canvas());
    EXPECT_EQ(find_line(survived, "L1 load"), nullptr);
    EXPECT_EQ(find_line(survived, "no FMA"), nullptr);
}

// Values at the edge of a double (from arithmetic on extreme inputs) must not
// reach the integer decades: they are left out with a note, and the axes stay sane.
TEST(ChartLayout, ExtremeValuesAreLeftOutNotOverflowed) {
    auto input = fixture_input();
    Point tiny;
    tiny.name = "tiny";
    tiny.work = 1e-300;
    tiny.seconds = 1;
    tiny.bytes["DRAM"] = 1;
    Point huge = tiny;
    huge.name = "huge";
    huge.work = 1e300;
    input.points = {tiny, huge};
    input.machines[0].bandwidth.push_back({"odd", "L9", 1e-200});
    const auto layout = layout_chart(input, svg_canvas());
    EXPECT_GT(layout.x.low_decade, -100);
    EXPECT_LT(layout.x.high_decade, 100);
    EXPECT_GT(layout.y.low_decade, -100);
    EXPECT_LT(layout.y.high_decade, 100);
    EXPECT_TRUE(layout.markers.empty());
    bool noted = false;
    for (const auto& note : layout.notes) noted = noted || note.find("2 points with performance outside") != std::string::npos;
    EXPECT_TRUE(noted);
    for (const auto& line : layout.lines) {
        EXPECT_TRUE(std::isfinite(layout.px(line.x1)) && std::isfinite(layout.py(line.y1))) << line.text;
    }
    const auto text = render_term(input, 100, 30, false);
    EXPECT_EQ(text.find("inf"), std::string::npos);
    EXPECT_EQ(render_svg(input).find("inf\""), std::string::npos);
}

TEST(ChartLayout, ASeriesFromItsFirstPointIsAStarAndAnyOtherAChain) {
    SeriesLine chain{"kernels", "#000000", {4, 7, 9}};
    EXPECT_EQ(series_path(chain), (std::vector<std::size_t>{4, 7, 9}));
    SeriesLine star{"sweep_reduce_copy", "#000000", {4, 7, 9, 11}, true};  // a function's point and its loops
    EXPECT_EQ(series_path(star), (std::vector<std::size_t>{4, 7, 4, 9, 4, 11}));
    star.points = {4, 7};
    EXPECT_EQ(series_path(star), (std::vector<std::size_t>{4, 7}));
}
