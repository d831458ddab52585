#include "core/point_origin.hpp"
#include "io/points_json.hpp"

#include <gtest/gtest.h>

#include <set>
#include <string>

using namespace roofline;

TEST(PointOrigin, EveryKnownOriginRoundTripsThroughItsName) {
    std::set<std::string> names;
    for (const auto origin : known_point_origins()) {
        const std::string name = point_origin_name(origin);
        EXPECT_TRUE(names.insert(name).second) << "two origins named '" << name << "'";
        EXPECT_EQ(parse_point_origin(name), origin) << name;
        const auto source = PointSource::from_name(name);
        EXPECT_EQ(source, origin) << name;
        EXPECT_EQ(source.name(), name);
        EXPECT_EQ(PointSource(origin).name(), name);
    }
    // Every value of the enum but `other` has a name of its own.
    EXPECT_EQ(known_point_origins().size(), static_cast<std::size_t>(PointOrigin::other));
}

TEST(PointOrigin, NamesFilesHaveAlwaysHeld) {
    EXPECT_EQ(parse_point_origin(""), PointOrigin::none);
    EXPECT_EQ(parse_point_origin("instrument"), PointOrigin::instrument);
    EXPECT_EQ(parse_point_origin("instrument+calltiming"), PointOrigin::instrument_calltiming);
    EXPECT_EQ(parse_point_origin("instrument+sampling"), PointOrigin::instrument_sampling);
    EXPECT_EQ(parse_point_origin("instrument+callstacks"), PointOrigin::instrument_callstacks);
    EXPECT_EQ(parse_point_origin("perf"), PointOrigin::perf);
    EXPECT_EQ(parse_point_origin("time"), PointOrigin::time);
    EXPECT_EQ(parse_point_origin("ncu"), PointOrigin::ncu);
    EXPECT_EQ(parse_point_origin("monitor"), PointOrigin::monitor);
    EXPECT_EQ(parse_point_origin("kernel"), PointOrigin::kernel);
    EXPECT_EQ(parse_point_origin("analytic"), PointOrigin::analytic);
    EXPECT_EQ(parse_point_origin("model"), PointOrigin::model);
}

TEST(PointOrigin, AnUnknownNameIsKeptAsOther) {
    EXPECT_FALSE(parse_point_origin("likwid"));
    EXPECT_FALSE(parse_point_origin("NCU"));  // names are exact
    EXPECT_FALSE(parse_point_origin("other"));
    const auto s = PointSource::from_name("likwid");
    EXPECT_EQ(s, PointOrigin::other);
    EXPECT_EQ(s.name(), "likwid");
    EXPECT_FALSE(s.empty());
    EXPECT_NE(s, PointSource::from_name("papi"));  // two unknown names stay apart
    EXPECT_EQ(s, PointSource::from_name("likwid"));
    EXPECT_TRUE(PointSource().empty());
    EXPECT_EQ(PointSource().name(), "");
}

TEST(PointOrigin, AnUnknownSourceInAPointsFileIsWrittenBackUnchanged) {
    const auto j = nlohmann::json::parse(R"({"schema": "roofline.points/1", "points": [
        {"name": "a", "flops": 1e9, "bytes": {"DRAM": 1e9}, "seconds": 1, "source": "likwid"},
        {"name": "b", "flops": 1e9, "bytes": {"DRAM": 1e9}, "seconds": 1, "source": "ncu"}]})");
    const auto points = points_from_json(j);
    ASSERT_EQ(points.size(), 2u);
    EXPECT_EQ(points[0].source, PointOrigin::other);
    EXPECT_EQ(points[1].source, PointOrigin::ncu);
    const auto back = points_to_json(points);
    EXPECT_EQ(back["points"][0]["source"], "likwid");
    EXPECT_EQ(back["points"][1]["source"], "ncu");
}
