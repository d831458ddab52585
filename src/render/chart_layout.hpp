// The layout shared by every chart renderer: axis ranges and ticks from the
// data, each roof and ceiling clipped to the plot, ridge points, point markers,
// series, regions, colours and labels placed so that they do not overlap.
// Pure: renderers only turn a ChartLayout into their format.
//
// Points in the two views:
//   ORM  one marker per point, at its DRAM intensity (points without DRAM bytes
//        are left out and counted in `notes`).
//   CARM one marker per memory level the point has bytes for, all at the
//        point's performance, joined by a thin line; the marker shape names the
//        level (circle L1, square L2, diamond L3, triangle DRAM, cross others).
//        The L1 marker (the first level present) is the point's primary one:
//        it carries the label and series lines join primary markers.
#pragma once

#include "render/chart.hpp"

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

namespace roofline {

// Where the plot sits on the canvas and how big text is, in canvas units
// (pixels for SVG, character cells for a terminal). y grows downward.
struct Canvas {
    double width = 960;
    double height = 640;
    double plot_left = 90;
    double plot_right = 930;
    double plot_top = 80;
    double plot_bottom = 520;
    double char_width = 6.96;     // average advance of a 12 px sans-serif character
    double label_height = 12;
    double small_char_width = 5.8;
    double small_label_height = 10;
    double marker_radius = 4;
    bool rotated_labels = true;   // bandwidth labels run along their line; false: horizontal
    std::size_t max_point_labels = 400;
    // Point and series names longer than this are shortened (render/short_names), each still
    // told apart: a C++ instantiation's 500-character name hid the chart and its key.
    std::size_t max_label_chars = 48;
};

Canvas svg_canvas();
Canvas terminal_canvas(int width, int height);

struct Tick {
    double value = 0;
    std::string text;
};

// A logarithmic axis spanning whole decades.
struct Axis {
    int low_decade = 0;
    int high_decade = 1;
    std::vector<Tick> decades;      // labelled
    std::vector<double> minor;      // 2..9 x each decade
    std::string title;
    double min() const;
    double max() const;
    bool contains(double value) const;
};

enum class LineKind { compute_roof, bandwidth_roof, compute_ceiling, bandwidth_ceiling, intensity_line };
bool is_ceiling(LineKind kind);

// A text placed on the canvas: (x, y) is the baseline anchor, rotated by
// `angle` degrees around it (clockwise positive, as in SVG).
struct PlacedLabel {
    std::string text;
    double x = 0;
    double y = 0;
    double angle = 0;
    bool anchor_end = false;  // x is the right end of the text, else the left end
    bool small = false;       // the small font
};

struct ChartLine {
    LineKind kind = LineKind::compute_roof;
    std::size_t machine = 0;
    std::string name;         // "DP peak", "L2 load", "no FMA"
    std::string level;        // bandwidth lines
    std::string category;     // ceilings
    std::string advice;       // ceilings: what lifts a point above it
    double value = 0;         // G<unit>/s, GB/s, or the intensity of an intensity line
    std::string unit;         // "GFLOP/s", "GB/s", "FLOP/byte"
    std::string text;         // the label text, "L2 load 200.0 GB/s"
    // A roof whose text found no free room: its short tag ("R1") is drawn instead and the
    // legend (the terminal's key) names it; empty when the text is drawn (or nothing is).
    std::string tag;
    std::string colour;
    double x1 = 0, y1 = 0, x2 = 0, y2 = 0; // data coordinates (intensity, performance), clipped
    bool has_label = false;
    PlacedLabel label;
};

struct RidgeMark {
    std::size_t machine = 0;
    std::string level;
    double intensity = 0;
    double performance = 0;
    std::string colour;
    bool has_label = false;
    PlacedLabel label;        // the intensity, vertical, by the x axis
};

enum class MarkerShape { circle, square, diamond, triangle, cross };
MarkerShape shape_for_level(const std::string& level);

struct Marker {
    std::size_t point = 0;    // index into ChartLayout::points
    std::string level;        // "DRAM" in ORM
    double intensity = 0;
    double performance = 0;
    MarkerShape shape = MarkerShape::circle;
    bool primary = false;
};

struct PlottedPoint {
    std::size_t input = 0;    // index into ChartInput::points
    std::string text;         // label, else name; shortened to the canvas' max_label_chars
    std::string colour;
    int series = -1;          // index into ChartLayout::series, -1 when none
    double performance = 0;
    std::vector<std::size_t> markers; // indices into ChartLayout::markers, level order
    // A point whose name found no free room near it: a number ("3") is placed instead and
    // the legend names it. Empty when the name is placed.
    std::string tag;
    bool has_label = false;
    PlacedLabel label;
    // A thin line from the marker towards a label placed more than leader_distance away.
    bool has_leader = false;
    double leader_x1 = 0, leader_y1 = 0, leader_x2 = 0, leader_y2 = 0; // canvas coordinates
};

// Farther than this (canvas units) from its marker, a point's label gets a leader line.
constexpr double leader_distance = 15;

struct SeriesLine {
    std::string name;         // shortened to the canvas' max_label_chars (the input's point series: whole)
    std::string colour;
    std::vector<std::size_t> points; // indices into ChartLayout::points, input order
    // Each point joined to the first rather than to the one before: a function's point and
    // its loops (measure --loops: the first point's details name its loops).
    bool from_first = false;
};

// The points a series' line passes through, in order: its points, or for a series drawn
// from its first point, that point between each of the others (a star, as one line).
std::vector<std::size_t> series_path(const SeriesLine& series);

struct ShadedRegion {
    Region region = Region::both;
    std::string name;         // "memory optimizations only" ...
    double from = 0;          // intensity range, clipped to the axis
    double to = 0;
    std::string colour;
    bool has_label = false;
    PlacedLabel label;
};

struct MachineStyle {
    std::string label;
    std::string colour;       // the machine's colour when several are overlaid
};

struct LegendItem {
    // roof: a roof whose name had no room on the plot (its tag, or nothing, drawn there);
    // point: a point whose name had no room (its number drawn by the marker).
    enum class Kind { machine, series, level_shape, roof, point } kind = Kind::machine;
    std::string text;
    std::string colour;
    MarkerShape shape = MarkerShape::circle;
    std::size_t index = 0;    // machine, series, line or point index
    double x = 0, y = 0;      // canvas position of its swatch centre
};

struct ChartLayout {
    Canvas canvas;
    Axis x;
    Axis y;
    std::string work_unit = "FLOP";
    std::string title;
    std::string subtitle;
    std::string banner;
    std::vector<std::string> footer;
    std::vector<std::string> notes;       // what was left out, and why
    std::vector<MachineStyle> machines;
    std::vector<ChartLine> lines;         // drawing order: regions' guides, ceilings, roofs
    std::vector<RidgeMark> ridges;
    std::vector<ShadedRegion> regions;
    std::vector<PlottedPoint> points;
    std::vector<Marker> markers;
    std::vector<SeriesLine> series;
    std::vector<LegendItem> legend;
    bool multi_machine = false;
    View view = View::carm;

    // Canvas coordinates of a data value.
    double px(double intensity) const;
    double py(double performance) const;
    // Data value at a canvas coordinate.
    double intensity_at(double px) const;
    double performance_at(double py) const;
};

ChartLayout layout_chart(const ChartInput& input, const Canvas& canvas);

// The character cells (column, row) a terminal chart draws `line` on, as term_chart draws it: a
// roof or ceiling sampled along its length (a part below the plot on its bottom row), an
// intensity line down its column. The layout keeps a label beside its own line with them.
std::vector<std::pair<int, int>> terminal_line_cells(const ChartLayout& layout, const ChartLine& line);

// Number formats shared by the renderers.
std::string format_decade(int exponent);   // 0.01, 1, 1000, 1e6

} // namespace roofline
