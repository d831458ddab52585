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
    // A figure that cannot be true: no level is called the bound, not even one under its roof.
    EXPECT_EQ(m->nearest_level, "");
    EXPECT_TRUE(m->above_roof());
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

TEST(DataMovement, ReportJudgesNothingWhenALevelIsAboveItsRoof) {
    const Roofline r = two_levels();
    Point p = transpose();
    p.bytes["DRAM"] = 6e9;  // 60 GB/s on a 50 GB/s roof
    const std::vector<MovedData> moved = {{"transpose", *data_movement(r, p, View::carm)}};
    const auto text = render_report({}, r, ReportFormat::text, View::carm, {}, {}, moved);
    EXPECT_EQ(text.find("nearest its roof at"), std::string::npos) << text;
    EXPECT_NE(text.find("Not judged: its reading at DRAM is above the roof, which cannot be, so no level is called its "
                        "bound"),
              std::string::npos)
        << text;
    EXPECT_EQ(text.find("Under half"), std::string::npos) << text;
    const auto json = nlohmann::json::parse(render_report({}, r, ReportFormat::json, View::carm, {}, {}, moved));
    EXPECT_TRUE(json["data_movement"][0]["nearest_level"].is_null());
    EXPECT_EQ(json["data_movement"][0]["judged"], false);
    EXPECT_TRUE(json["data_movement"][0]["next_step"].is_null());
}

// Under half of the roofs of the levels judged says nothing of the others: ORM judges DRAM alone,
// and a point may have bytes at some levels only.
TEST(DataMovement, NoBandwidthClaimUnlessEveryLevelWithARoofIsJudged) {
    Roofline r = two_levels();
    r.bandwidth.insert(r.bandwidth.begin() + 1, Roof{"L2 load", "L2", 200, 0.02});
    Point p;
    p.name = "copy";
    p.work = 0;
    p.seconds = 0.1;
    p.bytes = {{"L1", 3e9}, {"L2", 1.8e9}, {"DRAM", 1e8}};  // L2 at 90%, DRAM at 2%
    const auto orm = data_movement(r, p, View::orm);
    ASSERT_TRUE(orm);
    EXPECT_EQ(orm->unjudged_levels, (std::vector<std::string>{"L1", "L2"}));
    const std::vector<MovedData> moved = {{"copy", *orm}};
    const auto text = render_report({}, r, ReportFormat::text, View::orm, {}, {}, moved);
    EXPECT_EQ(text.find("bandwidth is not what holds it back"), std::string::npos) << text;
    EXPECT_NE(text.find("Under half of the roofs of the levels measured (DRAM); L1, L2 are not judged here"),
              std::string::npos)
        << text;
    const auto json = nlohmann::json::parse(render_report({}, r, ReportFormat::json, View::orm, {}, {}, moved));
    EXPECT_EQ(json["data_movement"][0]["next_step"].get<std::string>().find("bandwidth is not what holds it back"),
              std::string::npos);
    EXPECT_EQ(json["data_movement"][0]["unjudged_levels"], nlohmann::json::array({"L1", "L2"}));
    // CARM, bytes at L1 and DRAM only: L2 not judged, so no claim either.
    p.bytes = {{"L1", 1e8}, {"DRAM", 1e8}};
    const std::vector<MovedData> partial = {{"copy", *data_movement(r, p, View::carm)}};
    EXPECT_NE(render_report({}, r, ReportFormat::text, View::carm, {}, {}, partial)
                  .find("Under half of the roofs of the levels measured (L1, DRAM); L2 is not judged here"),
              std::string::npos);
    // A level counted as 0 bytes (the cache simulation saw no traffic there: L3 of a transpose held
    // in L2) is judged, at 0 GB/s: it said 'L2 is not judged here' of a counted 0.
    p.bytes = {{"L1", 1e8}, {"L2", 0}, {"DRAM", 1e8}};
    const auto zero = data_movement(r, p, View::carm);
    ASSERT_TRUE(zero);
    EXPECT_TRUE(zero->unjudged_levels.empty());
    ASSERT_EQ(zero->levels.size(), 3u);
    EXPECT_EQ(zero->levels[1].level, "L2");
    EXPECT_EQ(zero->levels[1].gbs, 0);
    const std::vector<MovedData> counted_zero = {{"copy", *zero}};
    EXPECT_NE(render_report({}, r, ReportFormat::text, View::carm, {}, {}, counted_zero)
                  .find("bandwidth is not what holds it back"),
              std::string::npos);
    // ORM leaves L1 and L2 out whatever their counts; and bytes counted as 0 everywhere are nothing moved.
    EXPECT_EQ(data_movement(r, p, View::orm)->unjudged_levels, (std::vector<std::string>{"L1", "L2"}));
    p.bytes = {{"L1", 0}, {"L2", 0}, {"DRAM", 0}};
    EXPECT_FALSE(data_movement(r, p, View::carm));
    // Bytes at every level with a roof, all under half: the claim is made.
    p.bytes = {{"L1", 1e8}, {"L2", 1e8}, {"DRAM", 1e8}};
    const std::vector<MovedData> every = {{"copy", *data_movement(r, p, View::carm)}};
    EXPECT_NE(render_report({}, r, ReportFormat::text, View::carm, {}, {}, every).find("bandwidth is not what holds it back"),
              std::string::npos);
    // ORM against a roofline with DRAM alone: every level it has a roof for is judged.
    Roofline dram_only = r;
    dram_only.bandwidth = {{"DRAM copy+WA", "DRAM", 50, 0.04}};
    const std::vector<MovedData> dram = {{"copy", *data_movement(dram_only, p, View::orm)}};
    EXPECT_NE(render_report({}, dram_only, ReportFormat::text, View::orm, {}, {}, dram)
                  .find("bandwidth is not what holds it back"),
              std::string::npos);
}

TEST(DataMovement, OnlyMovedPointsIsNotNoPoints) {
    const Roofline r = two_levels();
    const std::vector<MovedData> moved = {{"transpose", *data_movement(r, transpose(), View::carm)}};
    for (auto format : {ReportFormat::text, ReportFormat::markdown}) {
        const auto out = render_report({}, r, format, View::carm, {}, {}, moved);
        EXPECT_EQ(out.find("No points."), std::string::npos) << out;
        EXPECT_NE(out.find("Data movement only"), std::string::npos) << out;
        EXPECT_EQ(out.find("\n\n\n"), std::string::npos) << out;
    }
    // None at all: still said.
    EXPECT_NE(render_report({}, r, ReportFormat::text, View::carm).find("No points."), std::string::npos);
}

TEST(DataMovement, SectionHeaderUsesTheRooflinesWordForWork) {
    Roofline r = two_levels();
    r.work_unit = "bit op";
    const std::vector<MovedData> moved = {{"transpose", *data_movement(r, transpose(), View::carm)}};
    const auto text = render_report({}, r, ReportFormat::text, View::carm, {}, {}, moved);
    EXPECT_NE(text.find("Data movement only (1 point with no work:"), std::string::npos) << text;
    EXPECT_EQ(text.find("FLOP"), std::string::npos) << text;
}

TEST(DataMovement, MeasuresTableNamesALevelAboveItsRoof) {
    const Roofline r = two_levels();
    Point p = transpose();
    p.bytes["DRAM"] = 6e9;  // 60 GB/s on a 50 GB/s roof
    std::vector<MeasuredRow> rows = {{p, std::nullopt, data_movement(r, p, View::carm)}};
    const auto table = render_measured_points(rows, true);
    EXPECT_NE(table.find("transpose: no FLOPs, and its bandwidth is above the roof, which cannot be"), std::string::npos)
        << table;
    EXPECT_NE(table.find("60.0 GB/s at DRAM, above DRAM copy+WA's 50.0 GB/s (time that missed part of the traffic, "
                         "bytes counted in another build, or a roof measured low); not judged"),
              std::string::npos)
        << table;
    EXPECT_EQ(render_measured_points(rows, false).find("above the roof"), std::string::npos);
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
