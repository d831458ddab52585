// The chart as text, for a terminal over SSH: a grid of character cells with
// log axes, roofs as line characters, points as letters and a key below.
//   roofs   -  /      ceilings  .  (Unicode with colour: ─ ╱ and ┄ ·)
//   ridge   +         intensity lines  :
//   points  A, B, ... one letter per series (or per point without a series);
//           CARM: the capital at the L1 intensity, the small letter at the
//           same point's other levels on the same row.
#include "render/chart.hpp"
#include "render/chart_layout.hpp"
#include "render/text_escape.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <map>
#include <string>
#include <vector>

namespace roofline {
namespace {

struct Cell {
    std::string glyph = " ";
    std::string colour; // "#rrggbb", empty: default
};

class Grid {
public:
    Grid(int width, int height) : width_(width), height_(height), cells_(static_cast<std::size_t>(width * height)) {}

    void put(int col, int row, std::string glyph, const std::string& colour) {
        if (col < 0 || row < 0 || col >= width_ || row >= height_) return;
        auto& cell = cells_[static_cast<std::size_t>(row * width_ + col)];
        cell.glyph = std::move(glyph);
        cell.colour = colour;
    }
    // ASCII text only: labels are made safe before they get here.
    void text(int col, int row, const std::string& text, const std::string& colour) {
        for (std::size_t i = 0; i < text.size(); ++i) put(col + static_cast<int>(i), row, std::string(1, text[i]), colour);
    }
    bool empty_at(int col, int row) const {
        if (col < 0 || row < 0 || col >= width_ || row >= height_) return false;
        return cells_[static_cast<std::size_t>(row * width_ + col)].glyph == " ";
    }

    std::string str(bool color) const {
        std::string out;
        for (int row = 0; row < height_; ++row) {
            std::string line;
            std::string current;
            for (int col = 0; col < width_; ++col) {
                const Cell& cell = cells_[static_cast<std::size_t>(row * width_ + col)];
                if (color && cell.colour != current && cell.glyph != " ") {
                    line += cell.colour.empty() ? "\x1b[0m" : ansi(cell.colour);
                    current = cell.colour;
                }
                line += cell.glyph;
            }
            while (!line.empty() && line.back() == ' ') line.pop_back();
            if (color && !current.empty()) line += "\x1b[0m";
            out += line;
            out += '\n';
        }
        return out;
    }

private:
    static std::string ansi(const std::string& hex) {
        if (hex.size() != 7 || hex[0] != '#') return "\x1b[0m";
        const int r = std::stoi(hex.substr(1, 2), nullptr, 16), g = std::stoi(hex.substr(3, 2), nullptr, 16),
                  b = std::stoi(hex.substr(5, 2), nullptr, 16);
        return fmt::format("\x1b[38;2;{};{};{}m", r, g, b);
    }

    int width_, height_;
    std::vector<Cell> cells_;
};

// Names from files go to a terminal: no escape sequences or control characters,
// and plain ASCII so every cell is one character wide.
std::string terminal_safe(std::string_view text) { return ascii_printable(text); }  // render/text_escape.hpp

struct Glyphs {
    const char* roof_flat;
    const char* roof_up;
    const char* ceiling_flat;
    const char* ceiling_up;
    const char* guide;
    const char* axis_v;
    const char* axis_h;
    const char* tick;
};
constexpr Glyphs ascii_glyphs{"-", "/", ".", ".", ":", "|", "-", "+"};
constexpr Glyphs unicode_glyphs{"─", "╱", "┄", "·", "┆", "│", "─", "┼"};

// Clamped before the conversion: a position far off the canvas must not overflow an int.
int cell(double canvas_value) {
    if (!std::isfinite(canvas_value)) return -1;
    return static_cast<int>(std::floor(std::clamp(canvas_value, -1e6, 1e6)));
}

void draw_line(Grid& grid, const ChartLayout& layout, const ChartLine& line, const Glyphs& g) {
    const bool ceiling = is_ceiling(line.kind);
    const bool flat = std::fabs(layout.py(line.y2) - layout.py(line.y1)) < 1e-9;
    const char* glyph = line.kind == LineKind::intensity_line ? g.guide
                        : flat ? (ceiling ? g.ceiling_flat : g.roof_flat)
                               : (ceiling ? g.ceiling_up : g.roof_up);
    for (const auto& [col, row] : terminal_line_cells(layout, line)) grid.put(col, row, glyph, line.colour);
}

void draw_label(Grid& grid, const PlacedLabel& label, const std::string& colour) {
    const std::string text = terminal_safe(label.text);
    const int row = cell(label.y - 0.3);
    const int col = static_cast<int>(std::lround(label.anchor_end ? label.x - static_cast<double>(text.size()) : label.x));
    grid.text(col, row, text, colour);
}

// A key line broken to `width` characters between its items, continuations indented two. An
// item is a word or words that belong together (a ridge's level and its intensity, a roof's value
// and unit with its name's last word, a point's rate): it stays whole on one line wherever a line
// holds it ("L3" ended one line and its "0.598" began the next). An item wider than a line is
// broken at its spaces, and a word wider than that is cut (a key line of 68 characters ran past
// a 40-column chart).
std::vector<std::string> wrap_key_items(const std::vector<std::string>& items, std::size_t width) {
    std::vector<std::string> lines;
    std::string line;
    auto room = [&] { return lines.empty() ? width : width - 2; };
    auto flush = [&] {
        lines.push_back((lines.empty() ? "" : "  ") + line);
        line.clear();
    };
    auto place = [&](std::string word) {
        if (!line.empty() && line.size() + 1 + word.size() <= room()) {
            line += ' ' + word;
            return;
        }
        if (!line.empty()) flush();
        while (word.size() > room()) {
            line = word.substr(0, room());
            word.erase(0, room());
            flush();
        }
        line = word;
    };
    for (const auto& item : items) {
        if (item.empty()) continue;
        // Whole on this line, or on the next (a continuation, the narrower): it fits one there.
        if (item.size() <= width - 2 || (lines.empty() && line.size() + (line.empty() ? 0 : 1) + item.size() <= width)) {
            place(item);
            continue;
        }
        for (std::size_t at = 0; at <= item.size();) {
            std::size_t end = item.find(' ', at);
            if (end == std::string::npos) end = item.size();
            if (end > at) place(item.substr(at, end - at));
            at = end + 1;
        }
    }
    if (!line.empty() || lines.empty()) flush();
    return lines;
}

// The words of a text, each an item of its own.
std::vector<std::string> key_words(const std::string& text) {
    std::vector<std::string> words;
    for (std::size_t at = 0; at <= text.size();) {
        std::size_t end = text.find(' ', at);
        if (end == std::string::npos) end = text.size();
        if (end > at) words.push_back(text.substr(at, end - at));
        at = end + 1;
    }
    return words;
}

// A roof's text ("[1] L2 copy+WA 757 GB/s") as items: its value and unit one with its name's
// last word, so no line ends with a name whose figure is on the next.
std::vector<std::string> roof_items(const std::string& text) {
    auto words = key_words(text);
    const std::size_t n = words.size();
    if (n >= 3 && std::isdigit(static_cast<unsigned char>(words[n - 2].front()))) {
        words[n - 3] += ' ' + words[n - 2] + ' ' + words[n - 1];
        words.resize(n - 2);
    }
    return words;
}

// Letter of each point: one per series, one per point without a series.
struct PointKey {
    char letter = '*';
    std::vector<std::string> items;  // its text as key items (wrap_key_items), made safe
    std::string colour;
};

} // namespace

std::string render_term(const ChartInput& input, int width, int height, bool color) {
    width = std::max(width, 40);
    height = std::max(height, 12);
    const ChartLayout layout = layout_chart(input, terminal_canvas(width, height));
    const Canvas& c = layout.canvas;
    const Glyphs& g = color ? unicode_glyphs : ascii_glyphs;
    Grid grid(width, height);
    const std::string axis_colour = "#777777";

    grid.text(0, 0, terminal_safe(layout.title).substr(0, static_cast<std::size_t>(width)), "");

    // Axes: decades on the left and along the bottom.
    const int left = cell(c.plot_left) - 1;
    const int axis_row = cell(c.plot_bottom) + 1;
    for (int row = cell(c.plot_top); row < axis_row; ++row) grid.put(left, row, g.axis_v, axis_colour);
    for (int col = left; col <= cell(c.plot_right); ++col) grid.put(col, axis_row, g.axis_h, axis_colour);
    for (const auto& tick : layout.y.decades) {
        const int row = std::min(cell(layout.py(tick.value)), axis_row - 1);
        grid.put(left, row, g.tick, axis_colour);
        const std::string text = tick.text.substr(0, static_cast<std::size_t>(left));
        grid.text(left - static_cast<int>(text.size()), row, text, "");
    }
    int free_from = 0;
    for (const auto& tick : layout.x.decades) {
        const int col = cell(layout.px(tick.value));
        grid.put(col, axis_row, g.tick, axis_colour);
        const int start = std::clamp(col - static_cast<int>(tick.text.size()) / 2, 0, width - static_cast<int>(tick.text.size()));
        if (start >= free_from) {
            grid.text(start, axis_row + 1, tick.text, "");
            free_from = start + static_cast<int>(tick.text.size()) + 1;
        }
    }
    const std::string x_title = terminal_safe(layout.x.title);
    grid.text(std::max(0, (width - static_cast<int>(x_title.size())) / 2), axis_row + 2, x_title, "");

    for (const auto& line : layout.lines) draw_line(grid, layout, line, g);
    for (const auto& ridge : layout.ridges) grid.put(cell(layout.px(ridge.intensity)), cell(layout.py(ridge.performance)), "+", ridge.colour);
    for (const auto& line : layout.lines)
        if (line.has_label) draw_label(grid, line.label, is_ceiling(line.kind) ? std::string("#777777") : line.colour);

    // Points: letters.
    static constexpr std::string_view letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";
    std::vector<PointKey> keys;
    std::map<int, std::size_t> series_key;
    std::vector<std::size_t> key_of_point(layout.points.size());
    std::size_t unkeyed = 0;
    for (std::size_t i = 0; i < layout.points.size(); ++i) {
        const PlottedPoint& point = layout.points[i];
        if (point.series >= 0) {
            auto [it, inserted] = series_key.try_emplace(point.series, keys.size());
            if (inserted) {
                const auto& series = layout.series[static_cast<std::size_t>(point.series)];
                auto items = key_words(fmt::format("series {}:", terminal_safe(series.name)));
                items.push_back(fmt::format("{} point{}", series.points.size(), series.points.size() == 1 ? "" : "s"));
                keys.push_back({'*', std::move(items), series.colour});
            }
            key_of_point[i] = it->second;
        } else {
            key_of_point[i] = keys.size();
            // "NAME: 3.2 GFLOP/s, L1 0.5, L2 0.3": its rate and each level's intensity items of their own.
            auto items = key_words(terminal_safe(point.text) + ":");
            items.push_back(fmt::format("{:.3g} {}", point.performance, "G" + layout.work_unit + "/s"));
            for (std::size_t index : point.markers) {
                items.back() += ',';
                items.push_back(fmt::format("{} {:.3g}", terminal_safe(layout.markers[index].level),
                                            layout.markers[index].intensity));
            }
            keys.push_back({'*', std::move(items), point.colour});
        }
    }
    for (std::size_t k = 0; k < keys.size() && k < letters.size(); ++k) keys[k].letter = letters[k];
    for (std::size_t k = letters.size(); k < keys.size(); ++k) ++unkeyed;
    // Points whose letters land in one cell: the last drawn hides the others, which the key says.
    // What a cell shows is the last glyph drawn there, which may be a later point's '*' (past Z)
    // or small letter: the key names that one, not the last capital.
    std::map<std::pair<int, int>, std::vector<char>> letters_at;
    std::map<std::pair<int, int>, char> glyph_at;
    for (std::size_t i = 0; i < layout.points.size(); ++i) {
        const PlottedPoint& point = layout.points[i];
        const PointKey& key = keys[key_of_point[i]];
        // Secondary levels first, so the capital wins a shared cell.
        for (auto it = point.markers.rbegin(); it != point.markers.rend(); ++it) {
            const Marker& m = layout.markers[*it];
            const char glyph = m.primary || key.letter == '*' ? key.letter : static_cast<char>(key.letter - 'A' + 'a');
            const int col = cell(layout.px(m.intensity)), row = cell(layout.py(m.performance));
            grid.put(col, row, std::string(1, glyph), point.colour);
            glyph_at[{col, row}] = glyph;
            if (m.primary && key.letter != '*') {
                auto& here = letters_at[{col, row}];
                if (std::find(here.begin(), here.end(), key.letter) == here.end()) here.push_back(key.letter);
            }
        }
    }
    std::vector<std::string> hidden;
    for (const auto& [at, here] : letters_at) {
        const char shown = glyph_at[at];
        if (here.size() > 1 || shown != here.back()) {
            std::string names;
            for (std::size_t k = 0; k < here.size(); ++k) names += (k ? (k + 1 == here.size() ? " and " : ", ") : "") + std::string(1, here[k]);
            hidden.push_back(fmt::format("{} ({} shown)", names, shown));
        }
    }

    std::string out = grid.str(color);

    // The key under the chart, each line wrapped to the chart's width.
    const auto key_width = static_cast<std::size_t>(width);
    // A line of items (made safe), each kept whole where a line holds it; a line of text, by its words.
    auto add_items = [&](std::vector<std::string> items) {
        std::size_t total = 0;  // at most about 400 characters of a line, as before
        for (auto& item : items) {
            item = item.substr(0, 400 - std::min<std::size_t>(total, 400));
            total += item.size() + 1;
        }
        for (const auto& piece : wrap_key_items(items, key_width)) out += piece + "\n";
    };
    auto add = [&](const std::string& line) { add_items(key_words(terminal_safe(line))); };
    if (layout.multi_machine)
        for (std::size_t m = 0; m < layout.machines.size(); ++m) add(fmt::format("[{}] {}", m + 1, layout.machines[m].label));
    std::map<std::size_t, std::vector<std::string>> ridges_by_machine;
    for (const auto& ridge : layout.ridges)
        ridges_by_machine[ridge.machine].push_back(fmt::format("{} {:.3g}", terminal_safe(ridge.level), ridge.intensity));
    for (auto& [machine, list] : ridges_by_machine) {
        // Each level with its intensity one item, the unit with the last: never "L3" at a line's
        // end and "0.598" on the next.
        auto items = key_words(layout.multi_machine ? fmt::format("[{}] ridge points (+):", machine + 1) : "ridge points (+):");
        list.back() += " " + terminal_safe(layout.work_unit) + "/byte";
        items.insert(items.end(), list.begin(), list.end());
        add_items(std::move(items));
    }
    const std::size_t shown_keys = std::min(keys.size(), letters.size());
    if (shown_keys > 0 && layout.view == View::carm &&
        std::any_of(layout.points.begin(), layout.points.end(), [](auto& p) { return p.markers.size() > 1; }))
        add("points: capital at the L1 intensity, small letter at the same point's L2, L3, DRAM intensities");
    // Roofs whose name had no room on the chart: their tag there (or nothing), the name here.
    for (const auto& line : layout.lines) {
        if (line.kind != LineKind::compute_roof && line.kind != LineKind::bandwidth_roof) continue;
        auto items = roof_items(terminal_safe(line.text));
        if (!line.tag.empty()) {
            items.insert(items.begin(), terminal_safe(line.tag));
            add_items(std::move(items));
        } else if (!line.has_label) {
            for (const char* word : {"(no", "room", "on", "the", "chart)"}) items.push_back(word);
            add_items(std::move(items));
        }
    }
    for (std::size_t k = 0; k < shown_keys; ++k) {
        std::vector<std::string> items{std::string(1, keys[k].letter)};
        std::size_t total = 2;  // at most about 400 characters of a key's text, as before
        for (const auto& item : keys[k].items) {
            items.push_back(item.substr(0, 400 - std::min<std::size_t>(total, 400)));
            total += item.size() + 1;
        }
        const auto pieces = wrap_key_items(items, key_width);
        for (std::size_t i = 0; i < pieces.size(); ++i) {
            if (i == 0 && color)
                out += fmt::format("\x1b[38;2;{};{};{}m{}\x1b[0m{}", std::stoi(keys[k].colour.substr(1, 2), nullptr, 16),
                                   std::stoi(keys[k].colour.substr(3, 2), nullptr, 16),
                                   std::stoi(keys[k].colour.substr(5, 2), nullptr, 16), keys[k].letter, pieces[i].substr(1));
            else out += pieces[i];
            out += '\n';
        }
    }
    if (unkeyed > 0) add(fmt::format("* {} more series or points", unkeyed));
    if (!hidden.empty()) {
        std::string line = "points in one cell of this chart, the last drawn hiding the others:";
        for (std::size_t k = 0; k < hidden.size(); ++k) line += (k ? "; " : " ") + hidden[k];
        add(line);
    }
    for (const auto& note : layout.notes) add(note);
    return out;
}

} // namespace roofline
