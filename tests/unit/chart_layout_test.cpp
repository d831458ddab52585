#include "render/chart_layout.hpp"
#include "render/chart.hpp"

#include "chart_fixture.hpp"
#include "core/machine_file.hpp"
#include "io/machine_spec_yaml.hpp"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <vector>

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

// ---------------------------------------------------------------- crowded charts
// Two bench runs of one host overlaid piled six slanted roof labels on one spot (SVG) and
// wrote labels over each other and over point letters (terminal): labels must never overlap
// another label or a marker, whatever the machines, points and canvas.

namespace {

// The oriented box a placed label covers (the geometry the layout reasons with).
struct CrowdBox {
    double cx, cy, half_w, half_h, angle;
};

CrowdBox crowd_box(const PlacedLabel& label, const Canvas& canvas) {
    const double width = static_cast<double>(label.text.size()) * (label.small ? canvas.small_char_width : canvas.char_width);
    const double height = label.small ? canvas.small_label_height : canvas.label_height;
    const double angle = label.angle * 3.14159265358979323846 / 180;
    const double u = label.anchor_end ? -width / 2 : width / 2, v = -0.3 * height;
    return {label.x + u * std::cos(angle) - v * std::sin(angle), label.y + u * std::sin(angle) + v * std::cos(angle),
            width / 2, height / 2, angle};
}

// Separating axes; boxes that merely touch (within `slack`) do not overlap.
bool crowd_overlap(const CrowdBox& a, const CrowdBox& b, double slack = 0.01) {
    for (double angle : {a.angle, b.angle}) {
        for (int axis = 0; axis < 2; ++axis) {
            const double ux = axis == 0 ? std::cos(angle) : -std::sin(angle);
            const double uy = axis == 0 ? std::sin(angle) : std::cos(angle);
            auto radius = [&](const CrowdBox& box) {
                const double c = std::cos(box.angle), s = std::sin(box.angle);
                return box.half_w * std::fabs(c * ux + s * uy) + box.half_h * std::fabs(-s * ux + c * uy);
            };
            if (std::fabs((b.cx - a.cx) * ux + (b.cy - a.cy) * uy) >= radius(a) + radius(b) - slack) return false;
        }
    }
    return true;
}

struct CrowdLabel {
    std::string what;
    PlacedLabel label;
};

std::vector<CrowdLabel> crowd_labels(const ChartLayout& layout) {
    std::vector<CrowdLabel> all;
    for (const auto& line : layout.lines)
        if (line.has_label) all.push_back({"line " + line.text, line.label});
    for (const auto& ridge : layout.ridges)
        if (ridge.has_label) all.push_back({"ridge " + ridge.level, ridge.label});
    for (const auto& region : layout.regions)
        if (region.has_label) all.push_back({"region " + region.name, region.label});
    for (const auto& point : layout.points)
        if (point.has_label) all.push_back({"point " + point.text, point.label});
    return all;
}

bool crowd_is_roof(const ChartLine& line) { return line.kind == LineKind::compute_roof || line.kind == LineKind::bandwidth_roof; }

} // namespace

TEST(ChartLayout, CrowdedSvgLabelsOverlapNothingAndEveryRoofAndPointIsNamed) {
    for (int machines : {2, 6}) {
        for (int points : {2, 12, 40}) {
            const auto layout = layout_chart(crowded_input(machines, points), svg_canvas());
            const Canvas& c = layout.canvas;
            const auto labels = crowd_labels(layout);
            for (std::size_t i = 0; i < labels.size(); ++i) {
                const auto a = crowd_box(labels[i].label, c);
                for (std::size_t j = i + 1; j < labels.size(); ++j)
                    EXPECT_FALSE(crowd_overlap(a, crowd_box(labels[j].label, c)))
                        << machines << " machines, " << points << " points: " << labels[i].what << " / " << labels[j].what;
                for (const auto& marker : layout.markers) {
                    const CrowdBox dot{layout.px(marker.intensity), layout.py(marker.performance), c.marker_radius, c.marker_radius, 0};
                    EXPECT_FALSE(crowd_overlap(a, dot)) << labels[i].what << " covers a marker of " << layout.points[marker.point].text;
                }
            }
            // Every roof: its name on the plot, or its tag there and its name in the legend.
            for (std::size_t l = 0; l < layout.lines.size(); ++l) {
                const auto& line = layout.lines[l];
                if (!crowd_is_roof(line)) continue;
                const bool in_legend = std::any_of(layout.legend.begin(), layout.legend.end(), [&](const LegendItem& item) {
                    return item.kind == LegendItem::Kind::roof && item.index == l && item.text.find(line.text) != std::string::npos;
                });
                if (line.has_label && line.tag.empty()) EXPECT_EQ(line.label.text, line.text);
                else EXPECT_TRUE(in_legend) << line.text;
                if (!line.tag.empty()) { EXPECT_EQ(line.label.text, line.tag); }
            }
            // Every point: its name by it, or a number by it and the name in the legend; a name
            // or number placed away from its marker has a leader line to it.
            std::set<std::string> numbers;
            for (std::size_t p = 0; p < layout.points.size(); ++p) {
                const auto& point = layout.points[p];
                const bool in_legend = std::any_of(layout.legend.begin(), layout.legend.end(), [&](const LegendItem& item) {
                    return item.kind == LegendItem::Kind::point && item.index == p && item.text.find(point.text) != std::string::npos;
                });
                EXPECT_TRUE(point.has_label || in_legend) << point.text;
                if (!point.tag.empty()) {
                    EXPECT_TRUE(in_legend) << point.text;
                    EXPECT_EQ(point.label.text, point.tag);
                    EXPECT_TRUE(numbers.insert(point.tag).second) << "number " << point.tag << " given twice";
                }
                if (!point.has_label) continue;
                const Marker& m = layout.markers[point.markers.front()];
                const double cx = layout.px(m.intensity), cy = layout.py(m.performance);
                const auto box = crowd_box(point.label, c);
                const double dx = std::max(0.0, std::fabs(box.cx - cx) - box.half_w);
                const double dy = std::max(0.0, std::fabs(box.cy - cy) - box.half_h);
                if (std::hypot(dx, dy) > leader_distance + 0.5) { EXPECT_TRUE(point.has_leader) << point.text; }
                if (point.has_leader) { EXPECT_GT(std::hypot(dx, dy), leader_distance) << point.text; }
            }
        }
    }
}

TEST(ChartLayout, CrowdedSvgWithoutRoomTagsRoofsAndNumbersPoints) {
    // A canvas so small that full names cannot all fit: tags and numbers, never a pile.
    Canvas small = svg_canvas();
    small.plot_right = 330;
    small.plot_bottom = 260;
    small.width = 360;
    const auto layout = layout_chart(crowded_input(4, 12), small);
    std::size_t tagged = 0, numbered = 0;
    for (const auto& line : layout.lines) tagged += !line.tag.empty();
    for (const auto& point : layout.points) numbered += !point.tag.empty();
    EXPECT_GT(tagged, 0u);
    EXPECT_GT(numbered, 0u);
    const auto labels = crowd_labels(layout);
    for (std::size_t i = 0; i < labels.size(); ++i)
        for (std::size_t j = i + 1; j < labels.size(); ++j)
            EXPECT_FALSE(crowd_overlap(crowd_box(labels[i].label, layout.canvas), crowd_box(labels[j].label, layout.canvas)))
                << labels[i].what << " / " << labels[j].what;
}

TEST(ChartLayout, CrowdedTerminalLabelsNeverShareACellWithALabelOrAPoint) {
    for (int width : {40, 60, 80, 120}) {
        for (int machines : {1, 2, 5}) {
            const int height = width / 3 + 6;
            const auto layout = layout_chart(crowded_input(machines, 12), terminal_canvas(width, height));
            // Cells written, as term_chart writes them.
            std::map<std::pair<long, long>, std::string> owner;
            for (const auto& [what, label] : crowd_labels(layout)) {
                const long row = static_cast<long>(std::floor(label.y - 0.3));
                const long n = static_cast<long>(label.text.size());
                const long col = std::lround(label.anchor_end ? label.x - static_cast<double>(n) : label.x);
                EXPECT_GE(col, 0) << what;
                EXPECT_LE(col + n, width) << what;
                for (long k = 0; k < n; ++k) {
                    auto [it, fresh] = owner.try_emplace({col + k, row}, what);
                    EXPECT_TRUE(fresh) << "width " << width << ", " << machines << " machines: " << what << " writes over "
                                       << it->second << " at column " << col + k << ", row " << row;
                }
            }
            for (const auto& marker : layout.markers) {
                const std::pair<long, long> at{static_cast<long>(std::floor(layout.px(marker.intensity))),
                                               static_cast<long>(std::floor(layout.py(marker.performance)))};
                EXPECT_FALSE(owner.contains(at)) << "width " << width << ": " << owner[at] << " covers the point "
                                                 << layout.points[marker.point].text;
            }
            for (const auto& ridge : layout.ridges) {
                const std::pair<long, long> at{static_cast<long>(std::floor(layout.px(ridge.intensity))),
                                               static_cast<long>(std::floor(layout.py(ridge.performance)))};
                EXPECT_FALSE(owner.contains(at)) << "width " << width << ": " << owner[at] << " covers a ridge mark";
            }
            for (const auto& line : layout.lines)
                if (crowd_is_roof(line) && line.has_label) {
                    EXPECT_EQ(line.label.text, line.tag.empty() ? line.text : line.tag) << line.text;
                }
        }
    }
}

namespace {

// Each roof's and ceiling's label on a terminal chart of several machines, against the lines as
// term_chart draws them (in order, a later line over an earlier one; labels over lines): a cell
// of its own line showing at most two cells from the label (its end is one cell clear of the
// point it was put by), and no other machine's line nearer. Returns what failed.
std::vector<std::string> labels_off_their_own_line(const ChartLayout& layout) {
    std::map<std::pair<int, int>, std::size_t> shown;  // cell -> the line drawn there last
    for (std::size_t i = 0; i < layout.lines.size(); ++i)
        for (const auto& at : terminal_line_cells(layout, layout.lines[i])) shown[at] = i;
    struct Span {
        int row, left, right;
    };
    const auto span_of = [](const PlacedLabel& label) {
        const int n = static_cast<int>(label.text.size());
        const int left = static_cast<int>(std::lround(label.anchor_end ? label.x - n : label.x));
        return Span{static_cast<int>(std::floor(label.y - 0.3)), left, left + n - 1};
    };
    std::set<std::pair<int, int>> covered;
    for (const auto& line : layout.lines)
        if (line.has_label) {
            const Span s = span_of(line.label);
            for (int c = s.left; c <= s.right; ++c) covered.insert({c, s.row});
        }
    std::vector<std::string> failed;
    for (std::size_t i = 0; i < layout.lines.size(); ++i) {
        const ChartLine& line = layout.lines[i];
        if (!line.has_label || line.kind == LineKind::intensity_line) continue;
        const Span s = span_of(line.label);
        int own = 99, other = 99;
        for (const auto& [at, index] : shown) {
            if (covered.contains(at)) continue;
            const int distance = std::max({0, s.left - at.first, at.first - s.right, std::abs(at.second - s.row)});
            if (index == i) own = std::min(own, distance);
            else if (layout.lines[index].machine != line.machine && layout.lines[index].kind != LineKind::intensity_line)
                other = std::min(other, distance);
        }
        if (own > 2 || own > other)
            failed.push_back(fmt::format("'{}' at row {}, columns {}..{}: its own line {} cells away, another machine's {}",
                                         line.label.text, s.row, s.left, s.right, own, other));
    }
    return failed;
}

} // namespace

// Two machines on a small terminal chart ('plot --machine A --machine opteron_x4.yaml --format
// term --height 12'): a roof's label was put by a point of its own line, but one cell clear of
// it, and the other machine's lines run a cell or two away there, or draw over its own line's
// cells; '[2] DRAM bandwidth' could sit on the first machine's L1 roofs. A label now goes only
// where it is beside its own line and no other machine's line is nearer; else elsewhere, or a
// roof's tag, or the roof named in the key, a ceiling left out.
TEST(ChartLayout, TerminalLabelsOfSeveralMachinesSitBesideTheirOwnLine) {
    const std::filesystem::path root = std::filesystem::path(__FILE__).parent_path().parent_path().parent_path();
    ChartInput measured;
    for (const auto* file : {"tests/data/compare/epyc-vm.json", "examples/machines/opteron_x4.yaml"})
        measured.machines.push_back(roofline_from_machine_file(load_machine_file((root / file).string()), {"dp", 0}));
    std::size_t labels = 0;
    for (const ChartInput& input : {measured, crowded_input(2, 0), crowded_input(3, 0)}) {
        for (int width = 40; width <= 160; width += 3)
            for (int height = 12; height <= 30; height += 2) {
                const auto layout = layout_chart(input, terminal_canvas(width, height));
                for (const auto& failure : labels_off_their_own_line(layout))
                    ADD_FAILURE() << input.machines.size() << " machines, width " << width << ", height " << height
                                  << ": " << failure;
                for (const auto& line : layout.lines) labels += line.has_label;
            }
    }
    EXPECT_GT(labels, 3000u);
    // Every roof still named, on the chart or in the key below it.
    for (int height : {12, 16}) {
        const std::string text = render_term(measured, 100, height, false);
        for (const auto& line : layout_chart(measured, terminal_canvas(100, height)).lines)
            if (line.kind == LineKind::compute_roof || line.kind == LineKind::bandwidth_roof) {
                EXPECT_NE(text.find(line.text), std::string::npos) << line.text << "\n" << text;
            }
    }
}
