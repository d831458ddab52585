// Points with no work that moved data: their bandwidth at each level against its roof
// (core/data_movement), and how report gives them (render/report).
#include "core/data_movement.hpp"
#include "render/measure_tables.hpp"
#include "render/report.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

using namespace roofline;

namespace {

Roofline two_levels() {
    Roofline r;
    r.label = "Test CPU";
    r.precision = "dp";
    r.threads = 1;
    r.compute = {"DP peak", "", 100};
    r.bandwidth = {{"L1 load", "L1", 400, 0.02}, {"DRAM copy+WA", "DRAM", 50, 0.04}};
    return r;
}

// A transpose: 0 FLOPs, 1 GB at L1 and 2 GB at DRAM in 0.1 s.
Point transpose() {
    Point p;
    p.name = "transpose";
    p.work = 0;
    p.seconds = 0.1;
    p.bytes = {{"L1", 1e9}, {"DRAM", 2e9}};
    return p;
}

TEST(DataMovement, EachLevelAgainstItsRoofAndTheNearestNamed) {
    const auto m = data_movement(two_levels(), transpose(), View::carm);
    ASSERT_TRUE(m);
    ASSERT_EQ(m->levels.size(), 2u);
    EXPECT_EQ(m->levels[0].level, "L1");
    EXPECT_DOUBLE_EQ(m->levels[0].gbs, 10);
    EXPECT_DOUBLE_EQ(m->levels[0].share, 10.0 / 400);
    EXPECT_EQ(m->levels[1].roof, "DRAM copy+WA");
    EXPECT_DOUBLE_EQ(m->levels[1].gbs, 20);
    EXPECT_DOUBLE_EQ(m->levels[1].share, 0.4);
    EXPECT_EQ(m->nearest_level, "DRAM");
    // ORM: DRAM alone.
    const auto orm = data_movement(two_levels(), transpose(), View::orm);
    ASSERT_TRUE(orm);
    ASSERT_EQ(orm->levels.size(), 1u);
    EXPECT_EQ(orm->levels[0].level, "DRAM");
}

TEST(DataMovement, ALevelAboveItsRoofIsSaidAndNeverTheBound) {
    Point p = transpose();
    p.bytes["DRAM"] = 6e9;  // 60 GB/s on a 50 GB/s roof measured with 4% spread: cannot be
    const auto m = data_movement(two_levels(), p, View::carm);
    ASSERT_TRUE(m);
    EXPECT_TRUE(m->levels[1].above_roof);
    EXPECT_FALSE(m->levels[0].above_roof);
    EXPECT_EQ(m->nearest_level, "L1");
    p.bytes["DRAM"] = 5.1e9;  // 2% above: within the roof's spread, not called impossible
    EXPECT_FALSE(data_movement(two_levels(), p, View::carm)->levels[1].above_roof);
}

TEST(DataMovement, NoTimeOrNoLevelWithARoofIsNone) {
    Point p = transpose();
    p.seconds = 0;
    EXPECT_FALSE(data_movement(two_levels(), p, View::carm));
    p = transpose();
    p.bytes = {{"L3", 1e9}};  // a level the roofline has no roof for
    EXPECT_FALSE(data_movement(two_levels(), p, View::carm));
}

TEST(DataMovement, ReportGivesTheSectionAndJson) {
    const Roofline r = two_levels();
    const std::vector<MovedData> moved = {{"transpose", *data_movement(r, transpose(), View::carm)}};
    const auto text = render_report({}, r, ReportFormat::text, View::carm, {}, {}, moved);
    EXPECT_NE(text.find("Data movement only (1 point with no FLOPs"), std::string::npos) << text;
    EXPECT_NE(text.find("  transpose: nearest its roof at DRAM 20.0 GB/s, 40.0% of DRAM copy+WA (50.0 GB/s); L1 10.0 GB/s, "
                        "2.5% of L1 load (400 GB/s)"),
              std::string::npos)
        << text;
    const auto markdown = render_report({}, r, ReportFormat::markdown, View::carm, {}, {}, moved);
    EXPECT_NE(markdown.find("- **transpose**: nearest its roof at DRAM"), std::string::npos) << markdown;
    const auto json = nlohmann::json::parse(render_report({}, r, ReportFormat::json, View::carm, {}, {}, moved));
    ASSERT_EQ(json["data_movement"].size(), 1u);
    EXPECT_EQ(json["data_movement"][0]["point"], "transpose");
    EXPECT_EQ(json["data_movement"][0]["nearest_level"], "DRAM");
    EXPECT_DOUBLE_EQ(json["data_movement"][0]["levels"][1]["share"].get<double>(), 0.4);
    EXPECT_EQ(json["data_movement"][0]["levels"][1]["above_roof"], false);
    // Under half of every roof (40% and 2.5%): bandwidth is not what holds it back, said.
    EXPECT_NE(text.find("Under half of every level's roof, so bandwidth is not what holds it back"), std::string::npos);
    EXPECT_TRUE(json["data_movement"][0]["next_step"].is_string());
    Point near_roof = transpose();
    near_roof.bytes["DRAM"] = 4e9;  // 40 GB/s of 50: bandwidth-bound, no such advice
    const std::vector<MovedData> bound = {{"copy", *data_movement(r, near_roof, View::carm)}};
    EXPECT_EQ(render_report({}, r, ReportFormat::text, View::carm, {}, {}, bound).find("Under half"), std::string::npos);
    EXPECT_TRUE(nlohmann::json::parse(render_report({}, r, ReportFormat::json, View::carm, {}, {}, bound))
                    ["data_movement"][0]["next_step"].is_null());
    // A hostile name stays on its line.
    const std::vector<MovedData> hostile = {{"a\nb\x1b[2J", moved[0].movement}};
    const auto escaped = render_report({}, r, ReportFormat::text, View::carm, {}, {}, hostile);
    EXPECT_EQ(escaped.find("\x1b"), std::string::npos);
    EXPECT_NE(escaped.find("  a\\nb\\x1b[2J: nearest"), std::string::npos) << escaped;
}

TEST(DataMovement, MeasuresTableGivesThePercentOfBandwidthAndSaysSo) {
    const Roofline r = two_levels();
    std::vector<MeasuredRow> rows = {{transpose(), std::nullopt, data_movement(r, transpose(), View::carm)}};
    const auto table = render_measured_points(rows, true);
    EXPECT_NE(table.find("DRAM copy+WA              40.0%"), std::string::npos) << table;
    EXPECT_NE(table.find("transpose: no FLOPs, so its % is of bandwidth: 20.0 GB/s at DRAM, of DRAM copy+WA's 50.0 GB/s"),
              std::string::npos)
        << table;
    // Not judged (no machine model): neither column nor line.
    EXPECT_EQ(render_measured_points(rows, false).find("no FLOPs"), std::string::npos);
}

} // namespace
