#include "core/bench_mode.hpp"
#include "core/name_table.hpp"
#include "core/roofline.hpp"
#include "measure/engine.hpp"
#include "render/report.hpp"

#include <gtest/gtest.h>

#include <stdexcept>

using namespace roofline;

namespace {
enum class Colour { red, green, blue };
constexpr NameTable<Colour, 3> kColours{{{Colour::red, "red"}, {Colour::green, "green"}, {Colour::blue, "blue"}}};
} // namespace

TEST(NameTable, BothDirectionsReadOneTable) {
    static_assert(value_of(kColours, "green") == Colour::green);
    EXPECT_STREQ(name_of(kColours, Colour::blue), "blue");
    EXPECT_STREQ(name_of(kColours, static_cast<Colour>(7)), "?");
    EXPECT_STREQ(name_of(kColours, static_cast<Colour>(7), "none"), "none");
    EXPECT_FALSE(value_of(kColours, "Red"));  // exact
    EXPECT_EQ(names_of(kColours), (std::vector<std::string>{"red", "green", "blue"}));
    EXPECT_EQ(names_text(kColours), "red, green or blue");
}

TEST(NameTable, EveryViewRoundTrips) {
    for (const auto& name : view_names()) EXPECT_EQ(view_name(parse_view(name).value()), name);
    EXPECT_EQ(view_names(), (std::vector<std::string>{"carm", "orm"}));
    EXPECT_FALSE(parse_view("ORM"));
}

TEST(NameTable, EveryBenchModeRoundTrips) {
    for (auto m : {BenchMode::quick, BenchMode::full, BenchMode::spec}) EXPECT_EQ(parse_bench_mode(bench_mode_name(m)), m);
    EXPECT_FALSE(parse_bench_mode("slow"));
}

TEST(NameTable, EveryEngineAndScopeRoundTrips) {
    using namespace roofline::measure;
    for (auto k : {EngineKind::automatic, EngineKind::instrument, EngineKind::perf, EngineKind::time, EngineKind::ncu})
        EXPECT_EQ(parse_engine(engine_name(k)), k);
    EXPECT_THROW(parse_engine("magic"), std::invalid_argument);
    for (auto s : {RegionScope::process, RegionScope::thread}) EXPECT_EQ(parse_region_scope(region_scope_name(s)), s);
    EXPECT_THROW(parse_region_scope("core"), std::invalid_argument);
}

TEST(NameTable, EveryReportFormatRoundTrips) {
    for (auto f : {ReportFormat::text, ReportFormat::markdown, ReportFormat::csv, ReportFormat::json})
        EXPECT_EQ(parse_report_format(report_format_name(f)), f);
    EXPECT_THROW(parse_report_format("xml"), std::invalid_argument);
}
