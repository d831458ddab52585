#include "io/machine_json.hpp"
#include "io/points_json.hpp"
#include "io/temp_dir.hpp"
#include "io/text_file.hpp"

#include "core/precision.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>

#include <cmath>
#include <limits>

#include <stdlib.h>

using namespace roofline;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {

// Every field set to a value different from its default.
std::vector<Point> sample_points() {
    Point triad;
    triad.name = "stream triad";
    triad.series = "kernels";
    triad.label = "a = b + s*c";
    triad.work = 2.0e9;
    triad.bytes = {{"L1", 3.2e10}, {"L2", 3.2e10}, {"DRAM", 0.1 + 0.2}};
    triad.seconds = 1.75;
    triad.threads = 2;
    triad.source = PointOrigin::analytic;
    triad.details = {{"flops_dp_256", 2.0e9}, {"fma_share", 1.0}, {"delta", -0.5}};

    Point exchanges;
    exchanges.name = "halo exchange";
    exchanges.work = 1234;
    exchanges.work_unit = "exchange";
    exchanges.bytes = {{"PCIe", 8e6}};
    exchanges.seconds = 0.01;
    exchanges.source = PointOrigin::model;
    return {triad, exchanges};
}

void expect_equal(const Point& a, const Point& b) {
    EXPECT_EQ(a.name, b.name);
    EXPECT_EQ(a.series, b.series);
    EXPECT_EQ(a.label, b.label);
    EXPECT_EQ(a.work, b.work);
    EXPECT_EQ(a.work_unit, b.work_unit);
    EXPECT_EQ(a.bytes, b.bytes);
    EXPECT_EQ(a.seconds, b.seconds);
    EXPECT_EQ(a.threads, b.threads);
    EXPECT_EQ(a.source, b.source);
    EXPECT_EQ(a.details, b.details);
}

json minimal_document() {
    return json::parse(R"({"schema": "roofline.points/1", "points": [
        {"name": "p0", "flops": 1e9, "bytes": {"DRAM": 1e9}, "seconds": 1},
        {"name": "p1", "flops": 2e9, "bytes": {"L1": 4e9, "DRAM": 1e9}, "seconds": 0.5, "threads": 4}
    ]})");
}

// The SchemaError message for `document`, or "" when it parses.
std::string error_for(const json& document) {
    try {
        points_from_json(document, "points.json");
    } catch (const SchemaError& e) {
        return e.what();
    }
    return "";
}

} // namespace

TEST(PointsJson, RoundTripKeepsEveryField) {
    const auto points = sample_points();
    const auto back = points_from_json(json::parse(points_to_json(points).dump()));
    ASSERT_EQ(back.size(), points.size());
    for (std::size_t i = 0; i < points.size(); ++i) expect_equal(back[i], points[i]);
}

TEST(PointsJson, SecondsInOtherUnitsAreRefused) {
    auto j = points_to_json(sample_points());
    j["units"]["seconds"] = "milliseconds";
    try {
        points_from_json(j, "p.json");
        ADD_FAILURE() << "milliseconds were read as seconds";
    } catch (const std::exception& e) {
        EXPECT_NE(std::string(e.what()).find("/units/seconds: the figures are said to be in \"milliseconds\""),
                  std::string::npos)
            << e.what();
    }
    j.erase("units");
    EXPECT_EQ(points_from_json(j).size(), sample_points().size());
}

TEST(PointsJson, FlopsOrOpsWithUnit) {
    const auto j = points_to_json(sample_points());
    EXPECT_EQ(j["schema"], "roofline.points/1");
    const auto& flop_point = j["points"][0];
    EXPECT_EQ(flop_point["flops"], 2.0e9);
    EXPECT_FALSE(flop_point.contains("ops"));
    EXPECT_FALSE(flop_point.contains("op_unit"));
    const auto& exchange_point = j["points"][1];
    EXPECT_EQ(exchange_point["ops"], 1234.0);
    EXPECT_EQ(exchange_point["op_unit"], "exchange");
    EXPECT_FALSE(exchange_point.contains("flops"));
    // Empty optional strings are left out rather than written as "".
    EXPECT_FALSE(exchange_point.contains("series"));
    EXPECT_FALSE(exchange_point.contains("label"));
}

// A run that only timed its regions (the time engine) has no count: null, never 0 FLOPs.
TEST(PointsJson, WorkNotCountedIsNullBothWays) {
    auto points = sample_points();
    points[0].work_counted = false;
    points[0].work = 0;
    const auto j = points_to_json(points);
    EXPECT_TRUE(j["points"][0]["flops"].is_null());
    EXPECT_EQ(j["points"][1]["ops"], 1234.0);
    const auto back = points_from_json(json::parse(j.dump()));
    EXPECT_FALSE(back[0].work_counted);
    EXPECT_EQ(back[0].work, 0);
    EXPECT_TRUE(back[1].work_counted);
    auto doc = minimal_document();
    EXPECT_TRUE(points_from_json(doc)[0].work_counted);
}

TEST(PointsJson, MinimalPointsTakeDefaults) {
    const auto points = points_from_json(minimal_document());
    ASSERT_EQ(points.size(), 2u);
    EXPECT_EQ(points[0].work_unit, "FLOP");
    EXPECT_EQ(points[0].threads, 1);
    EXPECT_EQ(points[0].source, PointOrigin::none);
    EXPECT_TRUE(points[0].details.empty());
    EXPECT_EQ(points[1].threads, 4);
    EXPECT_EQ(points[1].bytes.at("L1"), 4e9);
}

TEST(PointsJson, UnknownKeysAreIgnored) {
    auto j = minimal_document();
    j["comment"] = "written by hand";
    j["points"][0]["note"] = 42;
    EXPECT_EQ(error_for(j), "");
}

TEST(PointsJson, WrongTypeNamesFilePathAndExpectation) {
    auto j = minimal_document();
    j["points"][1]["bytes"]["L1"] = "lots";
    EXPECT_EQ(error_for(j), "points.json: /points/1/bytes/L1: expected a number, found string");
}

TEST(PointsJson, SchemaErrors) {
    auto wrong_schema = minimal_document();
    wrong_schema["schema"] = "roofline.machine/1";
    EXPECT_NE(error_for(wrong_schema).find("points.json: /schema: expected \"roofline.points/1\", found "
                                           "\"roofline.machine/1\""),
              std::string::npos)
        << error_for(wrong_schema);

    auto no_schema = minimal_document();
    no_schema.erase("schema");
    EXPECT_EQ(error_for(no_schema), "points.json: /schema: missing (expected \"roofline.points/1\")");

    EXPECT_EQ(error_for(json::array()), "points.json: /: expected an object, found array");

    auto points_not_array = minimal_document();
    points_not_array["points"] = json::object();
    EXPECT_EQ(error_for(points_not_array), "points.json: /points: expected an array, found object");

    auto element_not_object = minimal_document();
    element_not_object["points"][0] = 3;
    EXPECT_EQ(error_for(element_not_object), "points.json: /points/0: expected an object, found integer");
}

TEST(PointsJson, RequiredFields) {
    auto no_name = minimal_document();
    no_name["points"][0].erase("name");
    EXPECT_EQ(error_for(no_name), "points.json: /points/0/name: missing (expected a string)");

    auto empty_name = minimal_document();
    empty_name["points"][0]["name"] = "";
    EXPECT_EQ(error_for(empty_name), "points.json: /points/0/name: expected a non-empty string, found \"\"");

    auto no_work = minimal_document();
    no_work["points"][1].erase("flops");
    EXPECT_EQ(error_for(no_work),
              "points.json: /points/1/flops: missing (expected a number, or null when not counted (or \"ops\" with "
              "\"op_unit\"))");

    auto no_bytes = minimal_document();
    no_bytes["points"][0].erase("bytes");
    EXPECT_NE(error_for(no_bytes).find("points.json: /points/0/bytes: missing (expected an object"),
              std::string::npos)
        << error_for(no_bytes);

    auto no_seconds = minimal_document();
    no_seconds["points"][0].erase("seconds");
    EXPECT_EQ(error_for(no_seconds), "points.json: /points/0/seconds: missing (expected a number)");
}

TEST(PointsJson, WorkIsFlopsXorOpsWithUnit) {
    auto both = minimal_document();
    both["points"][0]["ops"] = 5;
    both["points"][0]["op_unit"] = "exchange";
    EXPECT_EQ(error_for(both), "points.json: /points/0: has both \"flops\" and \"ops\" (expected one of them)");

    auto ops_without_unit = minimal_document();
    ops_without_unit["points"][0].erase("flops");
    ops_without_unit["points"][0]["ops"] = 5;
    EXPECT_EQ(error_for(ops_without_unit),
              "points.json: /points/0/op_unit: missing (expected a string naming the unit of \"ops\")");

    auto unit_with_flops = minimal_document();
    unit_with_flops["points"][0]["op_unit"] = "exchange";
    EXPECT_EQ(error_for(unit_with_flops),
              "points.json: /points/0/op_unit: only allowed with \"ops\", not with \"flops\"");

    auto ops = minimal_document();
    ops["points"][0].erase("flops");
    ops["points"][0]["ops"] = 5;
    ops["points"][0]["op_unit"] = "bit op";
    const auto points = points_from_json(ops);
    EXPECT_EQ(points[0].work, 5);
    EXPECT_EQ(points[0].work_unit, "bit op");
}

// A unit is printed in every result line ("G<unit>/s"): a control sequence in it would reach
// the terminal (issue 33), so it is refused where it is read.
TEST(PointsJson, AnOpUnitWithAControlSequenceIsRefused) {
    auto hostile = minimal_document();
    hostile["points"][0].erase("flops");
    hostile["points"][0]["ops"] = 5;
    hostile["points"][0]["op_unit"] = "x\x1b]0;pwn\x07";
    EXPECT_NE(error_for(hostile).find("/points/0/op_unit: expected a unit name such as IOP or exchange"),
              std::string::npos);
    EXPECT_TRUE(is_valid_work_unit_name("bit op"));
    EXPECT_TRUE(is_valid_work_unit_name("FLOP"));
    EXPECT_FALSE(is_valid_work_unit_name(""));
    EXPECT_FALSE(is_valid_work_unit_name("op\n"));
    EXPECT_FALSE(is_valid_work_unit_name("\x1b[2J"));
    EXPECT_FALSE(is_valid_work_unit_name("op "));
    EXPECT_FALSE(is_valid_work_unit_name(std::string(33, 'a')));
}

TEST(PointsJson, NumbersMustMakeSense) {
    auto negative_flops = minimal_document();
    negative_flops["points"][0]["flops"] = -1;
    EXPECT_EQ(error_for(negative_flops), "points.json: /points/0/flops: expected a count of 0, or from 1e-6 to 1e24, found -1");

    auto zero_seconds = minimal_document();
    zero_seconds["points"][0]["seconds"] = 0;
    EXPECT_EQ(error_for(zero_seconds), "points.json: /points/0/seconds: expected seconds from 1e-9 (1 ns) to 1e8 (3 years), found 0");

    auto null_seconds = minimal_document();
    null_seconds["points"][0]["seconds"] = nullptr;
    EXPECT_EQ(error_for(null_seconds), "points.json: /points/0/seconds: expected a number, found null");

    auto zero_threads = minimal_document();
    zero_threads["points"][0]["threads"] = 0;
    EXPECT_EQ(error_for(zero_threads), "points.json: /points/0/threads: expected an integer from 1 to 1048576, found 0");

    auto fractional_threads = minimal_document();
    fractional_threads["points"][0]["threads"] = 1.5;
    EXPECT_EQ(error_for(fractional_threads), "points.json: /points/0/threads: expected an integer, found number");

    auto whole_float_threads = minimal_document();
    whole_float_threads["points"][0]["threads"] = 4.0;
    EXPECT_EQ(error_for(whole_float_threads), "");

    auto negative_bytes = minimal_document();
    negative_bytes["points"][0]["bytes"]["DRAM"] = -8;
    EXPECT_EQ(error_for(negative_bytes),
              "points.json: /points/0/bytes/DRAM: expected a count of 0, or from 1e-6 to 1e24, found -8");

    // Finite is not enough: values no run can give are refused, not drawn at 1e-308.
    auto denormal_flops = minimal_document();
    denormal_flops["points"][0]["flops"] = 4.9e-324;
    EXPECT_NE(error_for(denormal_flops).find("/points/0/flops: expected a count"), std::string::npos);
    auto huge_bytes = minimal_document();
    huge_bytes["points"][0]["bytes"]["DRAM"] = 1e300;
    EXPECT_NE(error_for(huge_bytes).find("/points/0/bytes/DRAM: expected a count"), std::string::npos);
    auto tiny_seconds = minimal_document();
    tiny_seconds["points"][0]["seconds"] = 1e-300;
    EXPECT_NE(error_for(tiny_seconds).find("/points/0/seconds: expected seconds"), std::string::npos);
    auto zero_flops = minimal_document();
    zero_flops["points"][0]["flops"] = 0;
    EXPECT_EQ(error_for(zero_flops), "");

    // A level nothing knows is a typo: the point would be judged without its bytes.
    auto unknown_level = minimal_document();
    unknown_level["points"][0]["bytes"] = {{"L9", 8}};
    EXPECT_EQ(error_for(unknown_level), "points.json: /points/0/bytes/L9: unknown level 'L9' (expected L1, L2, L3, L4, "
                                        "DRAM, HBM, PCIe, NVLink, network or NUMA<i>-><j>)");
    for (const char* level : {"l4", "hbm", "PCIe", "NUMA0->1", "network"}) {
        auto known = minimal_document();
        known["points"][0]["bytes"] = {{level, 8}};
        EXPECT_EQ(error_for(known), "") << level;
    }

    auto bad_detail = minimal_document();
    bad_detail["points"][0]["details"] = {{"fma_share", true}};
    EXPECT_EQ(error_for(bad_detail), "points.json: /points/0/details/fma_share: expected a number, found boolean");

    auto bytes_not_object = minimal_document();
    bytes_not_object["points"][0]["bytes"] = json::array({1, 2});
    EXPECT_EQ(error_for(bytes_not_object), "points.json: /points/0/bytes: expected an object, found array");
}

TEST(PointsJson, KeysWithSlashesAreEscapedInPaths) {
    auto j = minimal_document();
    j["points"][0]["details"] = {{"flops/cycle", "x"}};
    EXPECT_EQ(error_for(j), "points.json: /points/0/details/flops~1cycle: expected a number, found string");
}

TEST(PointsJson, FileRoundTripAndErrorsNameTheFile) {
    TempDir dir("roofline-points");
    const auto path = dir.file("points.json");
    write_points_file(path, sample_points());
    const auto back = read_points_file(path);
    ASSERT_EQ(back.size(), 2u);
    expect_equal(back[0], sample_points()[0]);

    write_text_file_atomic(path, "{\"schema\": \"roofline.points/1\", \"points\": [");
    try {
        read_points_file(path);
        FAIL() << "expected a SchemaError";
    } catch (const SchemaError& e) {
        EXPECT_NE(std::string(e.what()).find(path + ": not valid JSON: parse error"), std::string::npos)
            << e.what();
    }

    EXPECT_THROW(read_points_file(dir.file("missing.json")), std::runtime_error);
}

TEST(PointsJson, WritingRefusesWhatReadingWouldRefuse) {
    TempDir dir("roofline-points");
    const auto path = dir.file("points.json");
    auto points = sample_points();
    points[0].seconds = std::numeric_limits<double>::quiet_NaN();
    EXPECT_THROW(write_points_file(path, points), SchemaError);
    EXPECT_FALSE(fs::exists(path));
}

// JSON lets a key appear twice and the parser keeps one silently: refused, with where.
TEST(PointsJson, DuplicateKeysAreRefusedWithTheObjectsPath) {
    TempDir dir("roofline-points");
    const auto path = dir.file("points.json");
    const auto write = [&](const std::string& text) {
        std::ofstream(path) << text;
        try {
            read_points_file(path);
        } catch (const SchemaError& e) {
            return std::string(e.what());
        }
        return std::string();
    };
    EXPECT_EQ(write(R"({"schema":"roofline.points/1","points":[{"name":"a","flops":1,"bytes":{},"seconds":1},)"
                    R"({"name":"b","flops":1,"flops":2,"bytes":{},"seconds":1}]})"),
              path + ": /points/1: key \"flops\" appears twice in one object");
    EXPECT_EQ(write(R"({"schema":"roofline.points/1","points":[{"name":"a","flops":1,"bytes":{"L1":1,"L1":2},"seconds":1}]})"),
              path + ": /points/0/bytes: key \"L1\" appears twice in one object");
    EXPECT_EQ(write(R"({"schema":"roofline.points/1","schema":"roofline.points/1","points":[]})"),
              path + ": /: key \"schema\" appears twice in one object");
    // The same key in different objects is fine.
    EXPECT_EQ(write(R"({"schema":"roofline.points/1","points":[{"name":"a","flops":1,"bytes":{},"seconds":1},)"
                    R"({"name":"b","flops":1,"bytes":{},"seconds":1}]})"),
              "");
}
