// measure --repeat (issue 35): how many runs, the time a point takes from them, and the spread
// that reaches compare and history.
#include "core/comparison.hpp"
#include "core/repeated_timing.hpp"
#include "measure/merge.hpp"
#include "render/chart.hpp"
#include "render/measure_tables.hpp"
#include "render/report.hpp"
#include "render/timing_text.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

using namespace roofline;

TEST(RepeatedTiming, AskedRunsComeAfterOneWarmUp) {
    const auto p = plan_repeats({5, -1}, 10.0);  // asked for: the first run's length does not matter
    EXPECT_EQ(p.warmup, 1);
    EXPECT_EQ(p.timed, 5);
    EXPECT_EQ(p.runs_total(), 6);
    EXPECT_FALSE(p.automatic);
    const auto one = plan_repeats({1, -1}, 0.01);  // --repeat 1: the one run, as before --repeat
    EXPECT_EQ(one.runs_total(), 1);
    EXPECT_EQ(one.warmup, 0);
    const auto cold = plan_repeats({3, 0}, 0.01);  // --warmup 0: the cold first run is timed too
    EXPECT_EQ(cold.warmup, 0);
    EXPECT_EQ(cold.timed, 3);
}

TEST(RepeatedTiming, AutomaticRunsFitTheBudget) {
    // A quick program: a warm-up and kAutoTimedRuns timed runs.
    auto p = plan_repeats({}, 0.1);
    EXPECT_TRUE(p.automatic);
    EXPECT_EQ(p.warmup, 1);
    EXPECT_EQ(p.timed, kAutoTimedRuns);
    // 0.8 s: floor(3 / 0.8) = 3 runs fit: the first as warm-up, two timed.
    p = plan_repeats({}, 0.8);
    EXPECT_EQ(p.warmup, 1);
    EXPECT_EQ(p.timed, 2);
    // Over a third of the budget: no room for two timed runs after a warm-up: timed once.
    p = plan_repeats({}, 1.2);
    EXPECT_EQ(p.runs_total(), 1);
    EXPECT_EQ(p.timed, 1);
    EXPECT_EQ(plan_repeats({}, 60).runs_total(), 1);
    // --warmup 0 alone: the first run is timed, and more fit.
    p = plan_repeats({0, 0}, 0.5);
    EXPECT_EQ(p.warmup, 0);
    EXPECT_EQ(p.timed, kAutoTimedRuns);
}

TEST(RepeatedTiming, TheFastestRunIsTheTimeWithTheSpreadKept) {
    const auto t = summarize_runs({0.52, 0.50, 0.55, 0.51, 0.60}, {0.9});
    EXPECT_EQ(t.runs, 5);
    EXPECT_DOUBLE_EQ(t.fastest, 0.50);
    EXPECT_DOUBLE_EQ(t.median, 0.52);
    EXPECT_DOUBLE_EQ(t.slowest, 0.60);
    EXPECT_NEAR(t.spread(), 0.2, 1e-12);
    EXPECT_EQ(t.warmup_runs, 1);
    EXPECT_DOUBLE_EQ(t.warmup_seconds, 0.9);
    EXPECT_THROW(summarize_runs({}), std::invalid_argument);

    Point p;
    p.seconds = 0.7;
    record_timing(p, t);
    EXPECT_DOUBLE_EQ(p.seconds, 0.50);
    EXPECT_DOUBLE_EQ(p.details.at("runs"), 5);
    EXPECT_DOUBLE_EQ(p.details.at("seconds_fastest"), 0.50);
    EXPECT_DOUBLE_EQ(p.details.at("seconds_slowest"), 0.60);
    EXPECT_DOUBLE_EQ(p.details.at("seconds_median"), 0.52);
    EXPECT_NEAR(p.details.at("seconds_spread"), 0.2, 1e-12);
    EXPECT_DOUBLE_EQ(p.details.at("seconds_warmup"), 0.9);
    const auto back = timing_of(p);
    ASSERT_TRUE(back);
    EXPECT_EQ(back->runs, 5);
    EXPECT_NEAR(back->spread(), 0.2, 1e-12);
    EXPECT_EQ(back->warmup_runs, 1);
    EXPECT_EQ(timing_text(*back), "min of 5 runs, spread 20.0%");
}

TEST(RepeatedTiming, OneRunRecordsNoSpread) {
    Point p;
    record_timing(p, summarize_runs({2.0}));
    EXPECT_DOUBLE_EQ(p.seconds, 2.0);
    EXPECT_DOUBLE_EQ(p.details.at("runs"), 1);
    // No spread of 0: compare and history then allow their default for an unknown spread.
    EXPECT_EQ(p.details.count("seconds_fastest"), 0u);
    EXPECT_EQ(p.details.count("seconds_slowest"), 0u);
    EXPECT_FALSE(point_figure(p).spread_known);
    EXPECT_EQ(timing_text(*timing_of(p)), "1 run");
    Point none;
    EXPECT_FALSE(timing_of(none));
}

namespace {
Point timed_point(double flops, std::vector<double> runs) {
    Point p;
    p.name = "dgemm";
    p.work = flops;
    p.bytes["L1"] = flops;
    record_timing(p, summarize_runs(runs, {runs.front() * 2}));
    return p;
}
} // namespace

// The issue: two measurements of one program 5% apart were flagged as a change (beyond the ±5%
// allowed for a figure of unknown spread); with the runs' spread recorded, a change within the
// noise the runs showed is no change, and one beyond it still is.
TEST(RepeatedTiming, TheSpreadReachesCompareAndHistory) {
    const Point a = timed_point(1e9, {1.00, 1.04, 1.08, 1.02, 1.10});  // spread 10%
    const Point b = timed_point(1e9, {1.07, 1.12, 1.09, 1.15, 1.08});  // 7% slower, spread 7.5%
    const auto fa = point_figure(a), fb = point_figure(b);
    ASSERT_TRUE(fa.spread_known);
    EXPECT_NEAR(fa.spread, 0.10, 1e-12);
    EXPECT_FALSE(changed(fa, fb));
    const auto same = compare_points({a}, nullptr, {b}, nullptr, View::carm);
    ASSERT_EQ(same.size(), 1u);
    EXPECT_FALSE(same[0].significant);
    EXPECT_NEAR(same[0].threshold, 0.10, 1e-12);
    // The same 7% between single runs (no spread known) is beyond the default 5%.
    Point sa = a, sb = b;
    for (Point* p : {&sa, &sb}) {
        p->details.erase("seconds_fastest");
        p->details.erase("seconds_slowest");
    }
    EXPECT_TRUE(compare_points({sa}, nullptr, {sb}, nullptr, View::carm)[0].significant);
    // Twice as slow is a change whatever the runs' spread.
    const Point c = timed_point(1e9, {2.0, 2.1, 2.05});
    EXPECT_TRUE(compare_points({a}, nullptr, {c}, nullptr, View::carm)[0].significant);

    FigureHistory h;
    h.key = "dgemm";
    h.runs = {{"#1", point_figure(a)}, {"#2", point_figure(b)}, {"#3", point_figure(c)}};
    find_changes(h);
    ASSERT_EQ(h.changes.size(), 1u);
    EXPECT_EQ(h.changes[0].run, 2u);
}

TEST(RepeatedTiming, MergedPointsCarryTheRunsOfEachRegion) {
    measure::MeasureResult r;
    r.engine = measure::EngineKind::time;
    r.wall_seconds = 1.0;
    r.wall_timing = summarize_runs({1.0, 1.1, 1.05}, {1.5});
    r.timings = {{"solve", 1, 0.8, 1}, {"io", 1, 0.1, 1}};
    r.region_timing = {summarize_runs({0.8, 0.9, 0.85}, {1.2}), std::nullopt};
    const auto points = measure::merge_points(r);
    ASSERT_EQ(points.size(), 3u);
    EXPECT_EQ(points[0].name, "solve");
    EXPECT_DOUBLE_EQ(points[0].details.at("runs"), 3);
    EXPECT_NEAR(point_figure(points[0]).spread, 0.125, 1e-12);
    EXPECT_EQ(points[1].details.count("runs"), 0u);  // only the first run had it
    EXPECT_EQ(points[2].name, measure::kProgramRegion);
    EXPECT_DOUBLE_EQ(points[2].seconds, 1.0);
    EXPECT_DOUBLE_EQ(points[2].details.at("seconds_warmup"), 1.5);

    // The table says how each time was taken.
    std::vector<MeasuredRow> rows;
    for (const auto& p : points) rows.push_back({p, std::nullopt});
    const auto table = render_measured_points(rows, false);
    EXPECT_NE(table.find("timed"), std::string::npos) << table;
    EXPECT_NE(table.find("min of 3 runs, spread 12.5%"), std::string::npos) << table;
    EXPECT_NE(table.find("min of 3 runs, spread 10.0%"), std::string::npos) << table;
}

TEST(RepeatedTiming, TheProvenanceSaysStatisticRunsWarmUpAndSpread) {
    const auto text = timing_provenance_text(summarize_runs({1.0, 1.1, 1.05}, {1.5}), true);
    EXPECT_NE(text.find("min of 3 native runs after 1 warm-up run"), std::string::npos) << text;
    EXPECT_NE(text.find("spread 10.0%"), std::string::npos) << text;
    EXPECT_NE(text.find("--repeat K"), std::string::npos) << text;
    EXPECT_NE(timing_provenance_text(summarize_runs({2.0}), false).find("one native run, no warm-up"),
              std::string::npos);
}

TEST(RepeatedTiming, TheReportSaysHowAPointWasTimed) {
    Roofline r;
    r.label = "Test CPU";
    r.precision = "dp";
    r.compute = {"DP peak", "", 100};
    r.bandwidth = {{"L1 load", "L1", 400}};
    Point p = timed_point(1e9, {1.0, 1.1, 1.05});
    const Analysis a = analyze(r, p, View::carm);
    ASSERT_TRUE(a.timing);
    EXPECT_EQ(a.timing->runs, 3);
    const auto text = render_report({a}, r, ReportFormat::text);
    EXPECT_NE(text.find("timed            min of 3 runs, spread 10.0%"), std::string::npos) << text;
    EXPECT_NE(render_report({a}, r, ReportFormat::markdown).find("timed: min of 3 runs, spread 10.0%"),
              std::string::npos);
    const auto json = nlohmann::json::parse(render_report({a}, r, ReportFormat::json));
    const auto& t = json["points"][0]["timing"];
    EXPECT_EQ(t["statistic"], "min");
    EXPECT_EQ(t["runs"], 3);
    EXPECT_NEAR(t["spread"].get<double>(), 0.10, 1e-12);
    EXPECT_EQ(t["warmup_runs"], 1);
    // A point that does not say how it was timed: no line, null.
    Point plain;
    plain.name = "old";
    plain.work = 1e9;
    plain.bytes["L1"] = 1e9;
    plain.seconds = 1;
    const Analysis b = analyze(r, plain, View::carm);
    EXPECT_EQ(render_report({b}, r, ReportFormat::text).find("timed "), std::string::npos);
    EXPECT_TRUE(nlohmann::json::parse(render_report({b}, r, ReportFormat::json))["points"][0]["timing"].is_null());
}

TEST(RepeatedTiming, ColdCachesBufferIsTwiceTheLargestCacheWithinBounds) {
    const auto cache = [](int level, std::uint64_t bytes) {
        CacheLevel c;
        c.level = level;
        c.size_bytes = bytes;
        return c;
    };
    constexpr std::uint64_t mib = 1ull << 20;
    // Twice the largest level, whichever order the levels come in.
    EXPECT_EQ(cold_flush_bytes({cache(1, 32 << 10), cache(2, 1 * mib), cache(3, 32 * mib)}), 64 * mib);
    EXPECT_EQ(cold_flush_bytes({cache(3, 96 * mib), cache(1, 48 << 10)}), 192 * mib);
    // Rounded up to whole MiB; small hierarchies get the floor.
    EXPECT_EQ(cold_flush_bytes({cache(2, 5 * mib + 1)}), 11 * mib);
    EXPECT_EQ(cold_flush_bytes({cache(1, 32 << 10), cache(2, 512 << 10)}), kColdFlushMinBytes);
    // A cache of more than half the cap (a guest reported a 508 MiB L3; the checked sizes come first) is capped,
    // and so is a wild size.
    EXPECT_EQ(cold_flush_bytes({cache(3, 508 * mib)}), 1016 * mib);
    EXPECT_EQ(cold_flush_bytes({cache(3, 700 * mib)}), kColdFlushMaxBytes);
    EXPECT_EQ(cold_flush_bytes({cache(3, ~0ull)}), kColdFlushMaxBytes);
    // Nothing known: the fallback, not zero (zero means warm).
    EXPECT_EQ(cold_flush_bytes({}), kColdFlushUnknownBytes);
    EXPECT_EQ(cold_flush_bytes({cache(3, 0)}), kColdFlushUnknownBytes);
}

TEST(RepeatedTiming, TheProvenanceSaysTheCachesWereCold) {
    const auto warm = timing_provenance_text(summarize_runs({1.0, 1.1}, {1.5}), false);
    EXPECT_EQ(warm.find("cold"), std::string::npos) << warm;
    const auto cold = timing_provenance_text(summarize_runs({1.0, 1.1}, {1.5}), false, 64ull << 20);
    EXPECT_NE(cold.find("cold caches: a 64 MiB buffer written between runs"), std::string::npos) << cold;
    const auto one = timing_provenance_text(summarize_runs({2.0}), false, 16ull << 20);
    EXPECT_NE(one.find("one native run, no warm-up"), std::string::npos) << one;
    EXPECT_NE(one.find("cold caches: a 16 MiB buffer"), std::string::npos) << one;
}

// A chart says how its points' times were taken (the fastest of how many runs, their spread;
// sampled CPU time and how many samples), and a tooltip says it per point.
TEST(RepeatedTiming, AChartSaysHowItsPointsWereTimed) {
    Point timed5, timed3, sampled, foreign;
    timed5.name = "a";
    record_timing(timed5, summarize_runs({0.50, 0.55, 0.60, 0.52, 0.51}));
    timed3.name = "b";
    record_timing(timed3, summarize_runs({1.0, 1.1, 1.05}));
    sampled.name = "f: loop";
    sampled.details["samples"] = 37;
    sampled.details["runs"] = 1;  // the sampling run: not a timed repeat
    EXPECT_EQ(chart_timing_note({timed5, timed3, sampled, foreign}),
              "times: the fastest of 3 to 5 native runs (spread up to 20%); 1 point from sampled CPU time "
              "(37 samples, error about 1/sqrt(samples))");
    EXPECT_EQ(chart_timing_note({timed5}), "times: the fastest of 5 native runs (spread up to 20%)");
    EXPECT_EQ(chart_timing_note({foreign}), "");  // a point from another tool says nothing of its timing
    EXPECT_EQ(point_timing_text(timed5), "min of 5 runs, spread 20.0%");
    EXPECT_EQ(point_timing_text(sampled), "37 samples of CPU time");
    EXPECT_EQ(point_timing_text(foreign), "");

    ChartInput input;
    input.points = {timed5, sampled};
    for (auto& p : input.points) p.work = 1e9, p.seconds = 0.5, p.bytes["DRAM"] = 1e9;
    const auto html = render_html(input);
    EXPECT_NE(html.find("\"timed\":\"min of 5 runs, spread 20.0%\""), std::string::npos);
    EXPECT_NE(html.find("'time: '"), std::string::npos);
    EXPECT_NE(render_svg(input).find("times: the fastest of 5 native runs (spread up to 20%)"), std::string::npos);
}
