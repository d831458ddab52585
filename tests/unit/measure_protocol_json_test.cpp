#include "measure/protocol_json.hpp"

#include <gtest/gtest.h>

using namespace roofline::measure;

TEST(MeasureProtocolJson, Marker) {
    const auto r = parse_marker_json(R"J({"schema": "roofline.marker/1", "regions": [
        {"name": "solve", "calls": 10, "threads": 2, "seconds": 1.25, "thread_seconds": [1.25, 1.19],
         "counters": {"fp_add": 100, "cycles": 5e9}},
        {"name": "init", "calls": 1, "threads": 1, "seconds": 0.5}]})J",
                                     "m.json");
    ASSERT_EQ(r.timings.size(), 2u);
    EXPECT_EQ(r.timings[0].name, "solve");
    EXPECT_EQ(r.timings[0].calls, 10);
    EXPECT_EQ(r.timings[0].threads, 2);
    EXPECT_DOUBLE_EQ(r.timings[0].seconds, 1.25);
    ASSERT_EQ(r.counters.size(), 1u);
    EXPECT_DOUBLE_EQ(r.counters[0].events.at("cycles"), 5e9);
}

TEST(MeasureProtocolJson, Vgtool) {
    const auto r = parse_vgtool_json(R"J({"schema": "roofline.vgtool/1", "regions": [
        {"name": "(program)", "calls": 1,
         "flops": {"f64": {"add": 10, "fma": 20}, "f32": {"mul": 4}},
         "flops_by_width": {"scalar": 2, "256": 32}, "bytes_loaded": 160, "bytes_stored": 80}],
        "functions": [{"name": "daxpy", "flops": {"f64": {"fma": 20}}, "bytes_loaded": 16, "bytes_stored": 8}]})J",
                                     "v.json");
    ASSERT_EQ(r.regions.size(), 1u);
    const auto& p = r.regions[0];
    EXPECT_DOUBLE_EQ(p.flops.at("f64_fma"), 20);
    EXPECT_DOUBLE_EQ(p.flops.at("f32_mul"), 4);
    EXPECT_DOUBLE_EQ(p.total_flops(), 34);
    EXPECT_DOUBLE_EQ(p.flops_by_width.at("256"), 32);
    EXPECT_DOUBLE_EQ(p.bytes_loaded, 160);
    ASSERT_EQ(r.functions.size(), 1u);
    EXPECT_EQ(r.functions[0].name, "daxpy");
}

TEST(MeasureProtocolJson, Errors) {
    EXPECT_THROW(parse_marker_json("{", "m"), MeasureError);
    EXPECT_THROW(parse_marker_json(R"J({"schema": "other", "regions": []})J", "m"), MeasureError);
    EXPECT_THROW(parse_marker_json(R"J({"schema": "roofline.marker/1"})J", "m"), MeasureError);
    EXPECT_THROW(parse_marker_json(R"J({"schema": "roofline.marker/1", "regions": [{"calls": 1}]})J", "m"), MeasureError);
    EXPECT_THROW(parse_vgtool_json(R"J({"schema": "roofline.vgtool/1", "regions": [{"name": "x", "flops": 3}]})J", "v"),
                 MeasureError);
    try {
        parse_vgtool_json(R"J({"schema": "roofline.vgtool/1", "regions": [{"name": "x", "bytes_loaded": "a"}]})J",
                          "v.json");
        FAIL();
    } catch (const MeasureError& e) {
        EXPECT_NE(std::string(e.what()).find("v.json: regions[0]"), std::string::npos) << e.what();
    }
}
