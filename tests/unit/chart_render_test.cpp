// Renderers: golden files for a fixed input, compared by structure and numbers
// so a colour change is not a failure (regenerate with ROOFLINE_UPDATE_GOLDEN=1
// after an intended change, then review the diff and look at the SVG), and
// escaping of names from files in every format.
#include "render/chart.hpp"
#include "render/chart_layout.hpp"

#include "chart_fixture.hpp"
#include "golden_compare.hpp"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

using namespace roofline;
using namespace roofline::test;

namespace {

std::filesystem::path golden_dir() { return std::filesystem::path(__FILE__).parent_path().parent_path() / "golden"; }

void check_golden(const std::string& name, const std::string& actual) {
    const auto path = golden_dir() / name;
    const char* update = std::getenv("ROOFLINE_UPDATE_GOLDEN");
    if (update && std::string(update) == "1") {
        std::filesystem::create_directories(path.parent_path());
        std::ofstream(path, std::ios::binary) << actual;
        GTEST_SKIP() << "golden file rewritten: " << path;
    }
    std::ifstream in(path, std::ios::binary);
    ASSERT_TRUE(in) << "missing golden file " << path << " (run with ROOFLINE_UPDATE_GOLDEN=1)";
    std::stringstream expected;
    expected << in.rdbuf();
    // Structure and numbers, not colours (see golden_compare.hpp).
    if (const auto difference = golden_difference(expected.str(), actual))
        FAIL() << name << " differs from the golden file " << *difference
               << "\n(if intended: ROOFLINE_UPDATE_GOLDEN=1 and review the diff)";
}

std::size_t count(const std::string& text, const std::string& needle) {
    std::size_t n = 0;
    for (auto at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1)) ++n;
    return n;
}

ChartInput hostile_input() {
    auto input = fixture_input();
    input.machines[0].label = "<script>alert('m')</script>";
    input.machines[0].ceilings[0].name = "<img src=x onerror=alert(2)>";
    input.points[0].name = "<script>alert(1)</script>";
    input.points[0].series = "</script><script>alert(3)</script>";
    input.points[2].name = "it's \"quoted\" & \x1b[31mred\x1b[0m\nEOD\nsystem('touch /tmp/pwned')";
    input.title = "";
    return input;
}

} // namespace

TEST(GoldenCompare, IgnoresColoursButNotNumbersOrText) {
    const std::string golden = "<line stroke=\"#1f77b4\" x1=\"12.5\"/><text fill=\"black\">DP peak 64.0</text>";
    EXPECT_FALSE(golden_difference(golden, "<line stroke=\"#d62728\" x1=\"12.5\"/><text fill=\"#333\">DP peak 64.0</text>"));
    EXPECT_FALSE(golden_difference(golden, "<line stroke=\"#1f77b4\" x1=\"12.6\"/><text fill=\"black\">DP peak 64.0</text>"))
        << "one unit of the last digit is rounding";
    EXPECT_TRUE(golden_difference(golden, "<line stroke=\"#1f77b4\" x1=\"12.8\"/><text fill=\"black\">DP peak 64.0</text>"));
    EXPECT_TRUE(golden_difference(golden, "<line stroke=\"#1f77b4\" x1=\"12.5\"/><text fill=\"black\">SP peak 64.0</text>"));
    EXPECT_TRUE(golden_difference(golden, golden + "<circle/>"));
    EXPECT_FALSE(golden_difference("x \x1b[31mred\x1b[0m", "x red"));
    EXPECT_FALSE(golden_difference(".roof { stroke: #123456; }", ".roof { stroke: rgb(1, 2, 3); }"));
}

TEST(ChartRender, SvgMatchesGolden) { check_golden("chart.svg", render_svg(fixture_input())); }
TEST(ChartRender, HtmlMatchesGolden) { check_golden("chart.html", render_html(fixture_input())); }
TEST(ChartRender, TermMatchesGolden) { check_golden("chart.txt", render_term(fixture_input(), 100, 30, false)); }
TEST(ChartRender, GnuplotMatchesGolden) { check_golden("chart.gp", render_gnuplot(fixture_input())); }

TEST(ChartRender, SvgShowsRoofsCeilingsRidgesPointsAndLegend) {
    const auto svg = render_svg(fixture_input());
    EXPECT_EQ(svg.rfind("<svg", 0), 0u);
    EXPECT_EQ(svg.find("href"), std::string::npos);
    EXPECT_NE(svg.find(">DP peak 64.0 GFLOP/s<"), std::string::npos);
    EXPECT_NE(svg.find(">L1 load 400 GB/s<"), std::string::npos);
    EXPECT_NE(svg.find(">no FMA 32.0 GFLOP/s<"), std::string::npos);
    EXPECT_NE(svg.find(">DRAM 1 thread 12.0 GB/s<"), std::string::npos);
    EXPECT_EQ(count(svg, "class=\"ridge\""), 3u);
    EXPECT_NE(svg.find("<polyline class=\"s0\""), std::string::npos);  // the triad series
    EXPECT_NE(svg.find(">Jacobi 7-pt<"), std::string::npos);
    EXPECT_NE(svg.find(">I = 0.5<"), std::string::npos);
    EXPECT_NE(svg.find(">triad<"), std::string::npos);  // legend
}

TEST(ChartRender, HtmlIsSelfContainedAndInteractive) {
    const auto html = render_html(fixture_input());
    EXPECT_EQ(html.rfind("<!DOCTYPE html>", 0), 0u);
    for (const char* remote : {"http://", "https://", "src=", "href=", "@import", "url("}) {
        // The only URL is the SVG namespace, which is a name, not a fetch.
        std::string rest = html;
        for (std::size_t at; (at = rest.find("http://www.w3.org/2000/svg")) != std::string::npos;) rest.erase(at, 26);
        EXPECT_EQ(rest.find(remote), std::string::npos) << remote;
    }
    EXPECT_NE(html.find("Content-Security-Policy"), std::string::npos);
    EXPECT_NE(html.find("<svg"), std::string::npos);
    EXPECT_NE(html.find("id=\"roofline-data\""), std::string::npos);
    EXPECT_NE(html.find("data-tip=\"p0\""), std::string::npos);
    // A point's attainable rate in the tooltip carries its unit, as its own rate does (it read
    // "attainable 12.5, 39.1% of it").
    EXPECT_NE(html.find("': attainable ' + num(s[0]) + ' G' + p.work_unit + '/s, '"), std::string::npos);
    EXPECT_NE(html.find("\"id\":\"ceiling\""), std::string::npos);
    EXPECT_NE(html.find("\"id\":\"s0\""), std::string::npos);
    EXPECT_NE(html.find("\"advice\":\"fuse multiplies and adds\""), std::string::npos);
    EXPECT_EQ(html.find("innerHTML"), std::string::npos);
}

TEST(ChartRender, NamesFromFilesAreTextInSvgAndHtml) {
    const auto input = hostile_input();
    const auto svg = render_svg(input);
    EXPECT_EQ(svg.find("<script"), std::string::npos);
    EXPECT_EQ(svg.find("<img"), std::string::npos);
    EXPECT_NE(svg.find("&lt;script&gt;alert(1)&lt;/script&gt;"), std::string::npos);
    EXPECT_EQ(svg.find('\x1b'), std::string::npos);

    const auto html = render_html(input);
    EXPECT_EQ(count(html, "<script"), 2u) << "only the page's own two script elements";
    EXPECT_EQ(count(html, "</script"), 2u);
    EXPECT_EQ(html.find("<img"), std::string::npos);
    EXPECT_NE(html.find("\\u003cscript\\u003ealert(1)\\u003c/script\\u003e"), std::string::npos);  // in the JSON
    EXPECT_NE(html.find("&lt;script&gt;alert(1)&lt;/script&gt;"), std::string::npos);            // in the SVG
}

TEST(ChartRender, NamesFromFilesCannotBreakOutOfGnuplotStrings) {
    auto input = hostile_input();
    input.machines[0].label = "it's \"quoted\"\nsystem('touch /tmp/pwned') # '";
    const auto script = render_gnuplot(input);
    std::istringstream lines(script);
    std::string line;
    while (std::getline(lines, line)) {
        EXPECT_NE(line.rfind("system", 0), 0u) << line;
        if (line.rfind("EOD", 0) == 0) {
            EXPECT_EQ(line, "EOD");
        }
    }
    EXPECT_NE(script.find("it''s \"quoted\""), std::string::npos);
}

TEST(ChartRender, TerminalChartIsPlainAsciiWithoutColour) {
    const auto text = render_term(hostile_input(), 90, 28, false);
    for (char ch : text) {
        const auto byte = static_cast<unsigned char>(ch);
        EXPECT_TRUE(ch == '\n' || (byte >= 0x20 && byte < 0x7f)) << "byte " << static_cast<int>(byte);
    }
    const auto coloured = render_term(fixture_input(), 90, 28, true);
    EXPECT_NE(coloured.find("\x1b[38;2;"), std::string::npos);
}

TEST(ChartRender, TerminalChartHasAxesRoofsAndAKey) {
    const auto text = render_term(fixture_input(), 100, 30, false);
    EXPECT_NE(text.find("DP peak 64.0 GFLOP/s"), std::string::npos);
    EXPECT_NE(text.find("Arithmetic intensity [FLOP/byte]"), std::string::npos);
    EXPECT_NE(text.find("ridge points (+): L1 0.16 L2 0.32 DRAM 2.67 FLOP/byte"), std::string::npos);
    EXPECT_NE(text.find("A series triad: 2 points"), std::string::npos);
    EXPECT_NE(text.find("C Jacobi 7-pt"), std::string::npos);
    EXPECT_NE(text.find("0.01"), std::string::npos);
    EXPECT_NE(text.find("1000"), std::string::npos);
}

TEST(ChartRender, TenMachinesAndManyPointsStayFast) {
    ChartInput input;
    for (int m = 0; m < 10; ++m) input.machines.push_back(fixture_machine("CPU " + std::to_string(m), 1 + 0.3 * m));
    for (int i = 0; i < 2000; ++i)
        input.points.push_back(fixture_point("p" + std::to_string(i), i % 3 ? "s" + std::to_string(i % 5) : "", 1e9 * (1 + i % 97),
                                             1.0, {{"L1", 1e9 * (1 + i % 89)}, {"DRAM", 1e8 * (1 + i % 83)}}));
    // Not a timing assertion: it must simply finish and stay a valid document.
    const auto svg = render_svg(input);
    EXPECT_EQ(svg.substr(svg.size() - 7), "</svg>\n");
    EXPECT_NE(render_html(input).find("</html>"), std::string::npos);
}

// Two points in one cell of the terminal chart: the last drawn hides the other, and the key says so.
TEST(ChartRender, TermSaysWhichPointsShareACell) {
    auto input = fixture_input();
    EXPECT_EQ(render_term(input, 100, 30, false).find("points in one cell"), std::string::npos);
    auto twin = input.points[0];
    twin.name = "twin";
    twin.series.clear();
    input.points[0].series.clear();
    input.points.push_back(twin);
    const auto text = render_term(input, 100, 30, false);
    EXPECT_NE(text.find("points in one cell of this chart, the last drawn hiding the others: A and "), std::string::npos)
        << text;
}

// Past Z a point is drawn as '*': 30 points in one cell showed '*' there, but the key said
// 'A, B, ... and Z (Z shown)', a letter the chart did not show. The key names what the cell shows.
TEST(ChartRender, TermNamesTheGlyphACellShowsWhenAStarHidesTheLetters) {
    ChartInput input;
    input.machines = {fixture_machine()};
    for (int k = 0; k < 30; ++k)
        input.points.push_back(fixture_point("same place " + std::to_string(k), "", 1e9, 1.0, {{"L1", 4e9}}));
    const auto text = render_term(input, 100, 30, false);
    EXPECT_NE(text.find("* 4 more series or points"), std::string::npos) << text;
    EXPECT_NE(text.find("Y and Z (* shown)"), std::string::npos) << text;
    EXPECT_EQ(text.find("(Z shown)"), std::string::npos) << text;
}

// 300 template instantiations told apart by one argument, 250 characters each: the terminal
// chart's key and the SVG's labels printed them whole; now they are shortened and still told
// apart, and the HTML page's data keeps the whole names for its tooltips.
TEST(ChartRender, LongNamesAreShortenedInLabelsAndKeyStillApart) {
    ChartInput input;
    input.machines = {fixture_machine()};
    const auto name = [](int k) {
        return "physics::solvers::detail::Kernel<" + std::to_string(k) +
               ", float, (physics::solvers::detail::Mode)1>::apply(std::vector<float, std::allocator<float> >&, "
               "std::map<std::__cxx11::basic_string<char, std::char_traits<char>, std::allocator<char> >, "
               "std::vector<float, std::allocator<float> > > const&)";
    };
    for (int k = 0; k < 300; ++k)
        input.points.push_back(fixture_point(name(k), k < 3 ? name(k) : "", 1e9 * (1 + k % 7), 1.0,
                                             {{"L1", 1e9 * (1 + k % 11)}, {"DRAM", 1e8 * (1 + k % 13)}}));
    const auto text = render_term(input, 100, 30, false);
    std::set<std::string> keyed;
    std::istringstream lines(text);
    for (std::string line; std::getline(lines, line);) {
        if (line.find("physics::") != std::string::npos) { EXPECT_LE(line.size(), 120u) << line; }
        if (line.size() > 2 && line[1] == ' ' && std::isupper(static_cast<unsigned char>(line[0])) &&
            line.find("GFLOP/s") != std::string::npos)
            keyed.insert(line.substr(2, line.find(": ") - 2));
    }
    EXPECT_EQ(keyed.size(), 23u) << text;  // A..Z: three series, then 23 points, each its own name
    for (const auto& k : keyed) EXPECT_LE(k.size(), 50u) << k;
    EXPECT_EQ(text.find("allocator"), std::string::npos) << text;

    const auto layout = layout_chart(input, svg_canvas());
    std::set<std::string> texts;
    for (const auto& p : layout.points) {
        EXPECT_LE(p.text.size(), svg_canvas().max_label_chars) << p.text;
        texts.insert(p.text);
    }
    EXPECT_EQ(texts.size(), layout.points.size());
    for (const auto& s : layout.series) EXPECT_LE(s.name.size(), svg_canvas().max_label_chars) << s.name;
    const auto svg = render_svg(input);
    EXPECT_EQ(svg.find("allocator"), std::string::npos);
    EXPECT_NE(svg.find("class=\"plabel"), std::string::npos);
    const auto html = render_html(input);
    EXPECT_NE(html.find("\"name\":\"physics::solvers::detail::Kernel\\u003c299, float"), std::string::npos);
    EXPECT_NE(html.find("basic_string\\u003cchar, std::char_traits"), std::string::npos);
}

// Two near-identical machines at 40 columns wrote a roof label over another and point
// letters into labels, and key lines of up to 68 characters ran past the chart's width.
TEST(ChartRender, CrowdedTerminalChartKeepsEveryLineInsideItsWidthAndNamesEveryRoof) {
    for (int width : {40, 57, 80}) {
        auto input = crowded_input(2, 6);
        input.machines[1].label = std::string(70, 'x');  // one word wider than the chart
        const std::string out = render_term(input, width, 20, false);
        std::istringstream lines(out);
        std::size_t count = 0;
        for (std::string line; std::getline(lines, line); ++count)
            EXPECT_LE(line.size(), static_cast<std::size_t>(width)) << "width " << width << ": " << line;
        EXPECT_GT(count, 20u);
        // Every roof's name is on the chart or in the key (after its tag when the chart has the tag).
        const auto layout = layout_chart(input, terminal_canvas(width, 20));
        std::string flat;  // the output with the key's wrapped lines joined again
        for (std::size_t i = 0; i < out.size(); ++i) {
            if (out[i] == '\n' && out.compare(i + 1, 2, "  ") == 0) {
                flat += ' ';
                i += 2;
            } else {
                flat += out[i];
            }
        }
        std::size_t tagged = 0;
        for (const auto& line : layout.lines) {
            if (line.kind != LineKind::compute_roof && line.kind != LineKind::bandwidth_roof) continue;
            if (!line.tag.empty()) {
                ++tagged;
                EXPECT_NE(flat.find(line.tag + " " + line.text), std::string::npos) << width << ": " << line.text;
            } else {
                EXPECT_NE(flat.find(line.text), std::string::npos) << width << ": " << line.text;
            }
        }
        if (width == 40) { EXPECT_GT(tagged, 0u); }  // not every name fits 32 columns of plot
    }
}

// The terminal chart's key wrapped at any space: at 40 columns a ridge's level ended one line
// ("... L2 0.525 L3") and its intensity began the next ("  1.16 DRAM 3.03 FLOP/byte"). A key
// item, a level with its intensity, a point's rate, a roof's value and unit with its name, is
// never split across lines at any width from 40 to 1000.
TEST(ChartRender, TerminalKeyNeverSplitsAnItemAcrossLines) {
    auto one = fixture_input();
    one.machines[0].bandwidth.insert(one.machines[0].bandwidth.begin() + 2, {"L3 load", "L3", 90});
    auto two = crowded_input(2, 6);
    for (auto& m : two.machines) m.bandwidth.insert(m.bandwidth.begin() + 2, {"L3 copy+WA", "L3", 91.7});
    two.machines[1].label = "a second machine with a long name 2x";
    std::size_t ridge_items = 0;
    for (const auto* input : {&one, &two}) {
        // Every width; two machines' chart (its layout the slower) every width up to 400, past any
        // key line's length, and every 10th beyond.
        for (int width = 40; width <= 1000; width += input == &two && width >= 400 ? 10 : 1) {
            const std::string out = render_term(*input, width, 20, false);
            std::vector<std::string> lines;
            std::istringstream in(out);
            for (std::string line; std::getline(in, line);) lines.push_back(line);
            const auto on_one_line = [&](const std::string& item) {
                return std::any_of(lines.begin(), lines.end(),
                                   [&](const std::string& l) { return l.find(item) != std::string::npos; });
            };
            const auto layout = layout_chart(*input, terminal_canvas(width, 20));
            for (const auto& ridge : layout.ridges) {
                const std::string item = fmt::format("{} {:.3g}", ridge.level, ridge.intensity);
                EXPECT_TRUE(on_one_line(item)) << "width " << width << ": ridge '" << item << "' split:\n" << out;
                ++ridge_items;
            }
            for (const auto& point : layout.points) {
                if (point.series >= 0) continue;  // keyed by its series
                if (!on_one_line(point.text + ":")) continue;  // past Z, or a name cut: not keyed whole
                EXPECT_TRUE(on_one_line(fmt::format("{:.3g} GFLOP/s", point.performance))) << "width " << width << "\n" << out;
                for (const auto index : point.markers) {
                    const std::string item = fmt::format("{} {:.3g}", layout.markers[index].level, layout.markers[index].intensity);
                    EXPECT_TRUE(on_one_line(item)) << "width " << width << ": '" << item << "' split:\n" << out;
                }
            }
            // A roof in the key: its name's last word, value and unit on one line.
            for (const auto& line : layout.lines) {
                if (line.kind != LineKind::compute_roof && line.kind != LineKind::bandwidth_roof) continue;
                if (line.tag.empty() && line.has_label) continue;
                const std::string tail = line.text.substr(line.text.rfind(' ', line.text.rfind(' ', line.text.rfind(' ') - 1) - 1) + 1);
                EXPECT_TRUE(on_one_line(tail)) << "width " << width << ": '" << tail << "' split:\n" << out;
            }
            for (const auto& line : lines) EXPECT_LE(line.size(), static_cast<std::size_t>(width)) << line;
        }
    }
    EXPECT_GT(ridge_items, 961u * 3);
}
