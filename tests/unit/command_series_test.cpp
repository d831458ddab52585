// history and compare never mix runs of different command lines in one series (issue 35).
#include "core/command_series.hpp"
#include "core/comparison.hpp"
#include "render/comparison_text.hpp"

#include <gtest/gtest.h>

using namespace roofline;

TEST(CommandSeries, OneProgramAndItsArgumentsAreOneSeries) {
    // The same program run from elsewhere (or rebuilt in another directory) with the same arguments.
    EXPECT_EQ(command_series_key({"./dot", "1000"}, PointOrigin::time), "dot 1000");
    EXPECT_EQ(command_series_key({"/home/u/build/dot", "1000"}, PointOrigin::perf), "dot 1000");
    EXPECT_EQ(command_series_key({"dot", "1000"}, PointOrigin::instrument), "dot 1000");
    // Another input size, another program, another argument order: other series.
    EXPECT_NE(command_series_key({"./dot", "2000"}, PointOrigin::time), "dot 1000");
    EXPECT_NE(command_series_key({"./dot512", "1000"}, PointOrigin::time), "dot 1000");
    EXPECT_NE(command_series_key({"./mm", "-n", "4"}, PointOrigin::time), command_series_key({"./mm", "4", "-n"}, PointOrigin::time));
    // Arguments are not split or joined differently: "a b" is one argument, a b two.
    EXPECT_NE(command_series_key({"./x", "a b"}, PointOrigin::time), command_series_key({"./x", "a", "b"}, PointOrigin::time));
}

TEST(CommandSeries, PointsNamedByWhatRanAreOneSeriesByName) {
    // A reference kernel's name holds its size; roofline's own command line does not matter.
    EXPECT_EQ(command_series_key({"roofline", "kernels", "daxpy"}, PointOrigin::kernel), "");
    EXPECT_EQ(command_series_key({"roofline", "model", "k.yaml"}, PointOrigin::analytic), "");
    EXPECT_EQ(command_series_key({"roofline", "monitor"}, PointOrigin::monitor), "");
    EXPECT_EQ(command_series_key({}, PointOrigin::time), "");  // nothing recorded
}

TEST(CommandSeries, CommandLineTextQuotesWhatAShellWould) {
    EXPECT_EQ(command_line_text({"./dot", "1000"}), "./dot 1000");
    EXPECT_EQ(command_line_text({"./x", "a b", "", "it's"}), "./x 'a b' '' 'it'\\''s'");
    // A word a shell would act on when the line is pasted is quoted too; plain marks are not.
    EXPECT_EQ(command_line_text({"./x", "a;rm", "*.c", "~/r.db", "--db=r.db", "n=1,2"}),
              "./x 'a;rm' '*.c' '~/r.db' --db=r.db n=1,2");
}

TEST(CommandSeries, GroupsRunsLatestSeriesFirst) {
    // Runs oldest first: dot 1000, dot 2000, dot 1000, mm, dot 2000.
    const auto series = group_by_command({"dot 1000", "dot 2000", "dot 1000", "mm", "dot 2000"});
    ASSERT_EQ(series.size(), 3u);
    EXPECT_EQ(series[0].key, "dot 2000");  // the latest run's
    EXPECT_EQ(series[0].runs, (std::vector<std::size_t>{1, 4}));
    EXPECT_EQ(series[1].key, "mm");
    EXPECT_EQ(series[1].runs, (std::vector<std::size_t>{3}));
    EXPECT_EQ(series[2].key, "dot 1000");
    EXPECT_EQ(series[2].runs, (std::vector<std::size_t>{0, 2}));
    EXPECT_TRUE(group_by_command({}).empty());
}

TEST(CommandSeries, HistoryLabelsEachSeriesWithItsCommandLine) {
    FigureHistory h;
    h.key = "dot";
    h.unit = "GFLOP/s";
    h.command = "./dot 1000";
    h.runs = {{"#1", SpreadFigure{2.0, 0, false}}, {"#3", SpreadFigure{2.02, 0, false}}};
    find_changes(h);
    const auto text = render_history({"point 'dot'", {h}}, false);
    EXPECT_NE(text.find("COMMAND LINE"), std::string::npos) << text;
    EXPECT_NE(text.find("./dot 1000"), std::string::npos) << text;
    EXPECT_NE(text.find("the same command line"), std::string::npos) << text;
    EXPECT_NE(render_history({"point 'dot'", {h}}, true).find("\"command\": \"./dot 1000\""), std::string::npos);
    // Roofs have no command line: no such column.
    h.command.clear();
    EXPECT_EQ(render_history({"roofs", {h}}, false).find("COMMAND LINE"), std::string::npos);
}

TEST(CommandSeries, CompareSaysTheCommandLinesDiffer) {
    Point a, b;
    a.name = b.name = "dot";
    a.work = b.work = 2e9;
    a.seconds = 1;
    b.seconds = 0.5;  // twice as fast: a change
    a.source = b.source = PointOrigin::time;
    ComparisonInput input;
    input.label_a = "points a.json";
    input.label_b = "points b.json";
    input.have_points = true;
    input.points = compare_points({a}, nullptr, {b}, nullptr, View::carm);
    ASSERT_TRUE(input.points.front().significant);
    EXPECT_EQ(render_comparison(input, false).find("other command line"), std::string::npos);
    input.command_a = "./dot 1000";
    input.command_b = "./dot 2000";
    const auto text = render_comparison(input, false);
    EXPECT_NE(text.find("The command lines differ: A ran ./dot 1000, B ran ./dot 2000"), std::string::npos) << text;
    EXPECT_NE(text.find("other command line"), std::string::npos) << text;  // the changed pair's WHY
    const auto json = render_comparison(input, true);
    EXPECT_NE(json.find("\"command_b\": \"./dot 2000\""), std::string::npos) << json;
}
