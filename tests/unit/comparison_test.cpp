// compare and history on paper: thresholds from recorded spreads, roofs matched
// across machines, a point's change put down to its roof or its efficiency, and
// changes found along a series of runs.
#include "core/comparison.hpp"
#include "core/machine_roofline.hpp"
#include "core/statistics.hpp"
#include "io/machine_json.hpp"
#include "render/comparison_text.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <stdexcept>

using namespace roofline;

namespace {

const std::string data_dir = (std::filesystem::path(__FILE__).parent_path().parent_path() / "data").string();

Stats samples(double min, double max, int runs = 5) {
    Stats s;
    s.min = min;
    s.max = max;
    s.median = (min + max) / 2;
    s.runs = runs;
    return s;
}

MachineModel two_roofs(double peak, Stats peak_stats, double dram, Stats dram_stats) {
    MachineModel m;
    ComputeRoof c;
    c.precision = "dp";
    c.isa = "avx2";
    c.mix = "fma";
    c.threads = 1;
    c.gflops = peak;
    c.stats = peak_stats;
    m.compute.push_back(c);
    MemoryRoof r;
    r.level = "DRAM";
    r.pattern = "load";
    r.isa = "avx2";
    r.threads = 1;
    r.gbs = dram;
    r.stats = dram_stats;
    m.memory.push_back(r);
    return m;
}

// A memory roof of 1 thread at `bytes`, and the curve of sizes its run measured.
void add_memory(MachineModel& m, const std::string& level, double gbs, std::uint64_t bytes,
                const std::vector<std::uint64_t>& measured) {
    MemoryRoof r;
    r.level = level;
    r.pattern = "copy";
    r.isa = "avx2";
    r.threads = 1;
    r.gbs = gbs;
    r.working_set_bytes = bytes;
    r.stats = samples(gbs * 0.999, gbs * 1.001);
    m.memory.push_back(r);
    BandwidthCurve c;
    c.pattern = "copy";
    c.isa = "avx2";
    c.threads = 1;
    for (const auto size : measured) c.points.emplace_back(size, size == bytes ? gbs : gbs * 0.99);
    m.curves.push_back(c);
}

Point point(const std::string& name, double flops, double dram_bytes, double seconds) {
    Point p;
    p.name = name;
    p.work = flops;
    p.bytes = {{"DRAM", dram_bytes}};
    p.seconds = seconds;
    return p;
}

} // namespace

TEST(Comparison, ThresholdIsTheLargerRecordedSpreadWithAFloor) {
    const SpreadFigure unknown{100, 0, false}, wide{100, 0.10, true}, tight{100, 0.001, true};
    EXPECT_DOUBLE_EQ(change_threshold(unknown, unknown), kUnknownSpread);
    EXPECT_DOUBLE_EQ(change_threshold(wide, tight), 0.10);
    EXPECT_DOUBLE_EQ(change_threshold(tight, tight), kMinimumChange);
    EXPECT_FALSE(changed(wide, SpreadFigure{109, 0.001, true}));
    EXPECT_TRUE(changed(wide, SpreadFigure{111, 0.001, true}));
    EXPECT_TRUE(changed(tight, SpreadFigure{97, 0.001, true}));
    EXPECT_FALSE(changed(wide, SpreadFigure{91.5, 0.001, true}));  // x1/1.093: inside x1/1.10
    EXPECT_TRUE(changed(wide, SpreadFigure{90.5, 0.001, true}));   // x1/1.105
    EXPECT_FALSE(changed(SpreadFigure{0, 0, false}, wide));  // nothing to compare with
}

TEST(Comparison, OneBlockRoofSpreadIsTwiceItsCvNeverMoreThanItsRange) {
    // Models from before bursts: the figure is the median of one block of samples.
    const auto f = roof_figure(50, samples(45, 55));  // no CV recorded: the range
    EXPECT_TRUE(f.spread_known);
    EXPECT_DOUBLE_EQ(f.spread, 0.2);
    Stats s = samples(30, 55, 20);
    s.cv = 0.03;  // one stray sample at 30 among 20: the range says 50%, the CV 3%
    EXPECT_DOUBLE_EQ(roof_figure(50, s).spread, 0.06);
    s.cv = 0.4;
    EXPECT_DOUBLE_EQ(roof_figure(50, s).spread, 0.5);                 // never more than the range
    EXPECT_FALSE(roof_figure(50, samples(50, 50, 1)).spread_known);  // one sample says nothing of spread
    EXPECT_DOUBLE_EQ(roof_figure(50, samples(50, 50, 1)).floor, kRoofMinimumChange);
}

// Audit h40: the spread was (max - min) / roof over every sample, so one disturbed sample (33
// under a roof of 59) made it 44% and a 30% drop of the roof read "same". The roof is the 0.9
// quantile of its bursts' best samples: its spread is how far apart its best bursts landed, or
// the CV of its samples where that is wider (a rerun lands within about it), never the range.
TEST(Comparison, RoofSpreadIsTheWiderOfItsTopBurstsAndItsCvNotItsWorstSample) {
    const std::vector<std::vector<double>> bursts{
        {59.0, 58.0, 33.0}, {59.10, 58.5, 40.0}, {59.05, 57.0}, {59.08, 58.9}};  // bests 59.00 59.05 59.08 59.10
    Stats stats;
    const double roof = summarize_bursts(bursts, 0.9, 0.02, stats);
    ASSERT_EQ(stats.bursts, 4);
    EXPECT_DOUBLE_EQ(stats.min, 33.0);
    const auto a = roof_figure(roof, stats);
    ASSERT_TRUE(a.spread_known);
    EXPECT_EQ(a.source, SpreadSource::cv);  // the CV (17%) is wider than the two best bursts (0.03%)
    EXPECT_NEAR(a.spread, stats.cv, 1e-12);
    EXPECT_GT(a.spread, (59.10 - 59.08) / roof);
    EXPECT_LT(a.spread, 0.2);
    EXPECT_GT((stats.max - stats.min) / roof, 0.3);  // what the old spread was
    EXPECT_EQ(a.bursts, 4);
    EXPECT_EQ(a.runs, 10);
    EXPECT_FALSE(a.unstable);

    // The same run 30% slower: flagged, either way round, and by compare_roofs.
    std::vector<std::vector<double>> slower = bursts;
    for (auto& b : slower)
        for (auto& x : b) x *= 0.7;
    Stats slower_stats;
    const double slower_roof = summarize_bursts(slower, 0.9, 0.02, slower_stats);
    const auto b = roof_figure(slower_roof, slower_stats);
    EXPECT_NEAR(b.spread, a.spread, 1e-9);
    EXPECT_NEAR(change_threshold(a, b), stats.cv, 1e-9);
    EXPECT_TRUE(changed(a, b));  // x0.7 is beyond 1 / 1.17
    EXPECT_TRUE(changed(b, a));
    MachineModel ma = two_roofs(roof, stats, 20, samples(19.9, 20.1));
    MachineModel mb = two_roofs(slower_roof, slower_stats, 20, samples(19.9, 20.1));
    const auto roofs = compare_roofs(ma, mb);
    ASSERT_EQ(roofs.size(), 2u);
    EXPECT_TRUE(roofs[0].significant);
    EXPECT_NEAR(roofs[0].ratio, 0.7, 1e-12);
    EXPECT_FALSE(roofs[1].significant);

    // Bests far apart: a wide spread, which a 4% change stays within.
    const std::vector<std::vector<double>> loose{{50.0}, {55.0}, {58.0}, {60.0}};
    Stats loose_stats;
    const double loose_roof = summarize_bursts(loose, 0.9, 0.02, loose_stats);
    const auto l = roof_figure(loose_roof, loose_stats);
    EXPECT_NEAR(l.spread, loose_stats.cv, 1e-12);  // 7.8%, wider than the two best (3.4%)
    EXPECT_GT(l.spread, (60.0 - 58.0) / loose_roof);
    EXPECT_FALSE(changed(l, SpreadFigure{loose_roof * 0.96, 0, true, kRoofMinimumChange}));
    // One sample a burst: no CV beyond the bursts' own; where the top two are the wider, they are the spread.
    const std::vector<std::vector<double>> tight{{58.0, 58.0}, {58.1, 58.1}, {59.0, 59.0}, {60.0, 60.0}};
    Stats tight_stats;
    const double tight_roof = summarize_bursts(tight, 0.9, 0.02, tight_stats);
    const auto t = roof_figure(tight_roof, tight_stats);
    EXPECT_LT(tight_stats.cv, (60.0 - 59.0) / tight_roof);
    EXPECT_EQ(t.source, SpreadSource::top_bursts);
    EXPECT_NEAR(t.spread, (60.0 - 59.0) / tight_roof, 1e-12);
}

TEST(Comparison, RoofSpreadOfManyBurstsIsBoundedFromAboveAndOfOneBurstUnknown) {
    // 21 bursts at q = 0.9: the roof lies between the 19th and 20th best of 21, below the best.
    std::vector<std::vector<double>> bursts;
    for (int i = 0; i < 21; ++i) bursts.push_back({100.0 + i * 0.1});
    Stats stats;
    const double roof = summarize_bursts(bursts, 0.9, 0.02, stats);
    const auto f = roof_figure(roof, stats);
    ASSERT_TRUE(f.spread_known);
    EXPECT_GE(f.spread, (102.0 - 101.8) / roof - 1e-12);  // at least the range of the bursts the roof lies among
    EXPECT_LT(f.spread, 0.01);
    Stats one;
    const double single = summarize_bursts({{10.0, 9.0, 9.5}}, 0.9, 0.02, one);
    const auto single_figure = roof_figure(single, one);
    EXPECT_EQ(single_figure.source, SpreadSource::cv);  // one burst: no best to compare its best with, its samples' CV
    EXPECT_TRUE(single_figure.unstable);                // and not confirmed by a second burst: not judged
}

// Audit h40: |b/a - 1| against the threshold let a +67% recovery count while the -40% drop
// before it did not. On a log scale x0.6 and x1.67 are the same size of change.
TEST(Comparison, ASlowdownCountsAsSoonAsTheSpeedupOfTheSameFactor) {
    const SpreadFigure before{100, 0.45, true}, after{60, 0.45, true};
    EXPECT_DOUBLE_EQ(change_threshold(before, after), 0.45);
    EXPECT_TRUE(changed(before, after));  // -40%: x0.6 is beyond x1/1.45
    EXPECT_TRUE(changed(after, before));  // +67%
    for (const double r : {1.04, 1.06, 1.5, 3.0})
        EXPECT_EQ(beyond_threshold(r, 0.05), beyond_threshold(1 / r, 0.05)) << r;
    EXPECT_FALSE(beyond_threshold(1.04, 0.05));
    EXPECT_TRUE(beyond_threshold(1 / 1.06, 0.05));
    EXPECT_FALSE(beyond_threshold(0, 0.05));
    const auto band = change_band(0.25);
    EXPECT_DOUBLE_EQ(band.low, 0.8);
    EXPECT_DOUBLE_EQ(band.high, 1.25);

    FigureHistory h;
    h.key = "DRAM copy 1t";
    h.runs = {{"#1", before}, {"#2", after}, {"#4", before}};
    find_changes(h);
    ASSERT_EQ(h.changes.size(), 2u);
    EXPECT_EQ(h.changes[0].run, 1u);
    EXPECT_NEAR(h.changes[0].ratio, 0.6, 1e-12);
    EXPECT_EQ(h.changes[1].run, 2u);
    EXPECT_NEAR(h.changes[1].ratio, 1 / 0.6, 1e-12);
}

TEST(Comparison, ARoofsFloorIsFivePercentAPointsTwo) {
    const SpreadFigure roof{100, 0.001, true, kRoofMinimumChange};
    EXPECT_FALSE(changed(roof, SpreadFigure{96, 0.001, true, kRoofMinimumChange}));
    EXPECT_TRUE(changed(roof, SpreadFigure{94, 0.001, true, kRoofMinimumChange}));
    Point p = point("k", 1e9, 1e9, 1.0);
    p.details = {{"seconds_fastest", 1.0}, {"seconds_slowest", 1.001}};
    Point q = p;
    q.seconds = 1.0 / 0.96;
    EXPECT_TRUE(changed(point_figure(p), point_figure(q)));  // a point's floor stays 2%
}

TEST(Comparison, RoofsMatchedByKindAndThreadsNotIsa) {
    MachineModel a = two_roofs(100, samples(99, 101), 20, samples(19.8, 20.2));
    MachineModel b = two_roofs(100.5, samples(99, 101), 25, samples(24.9, 25.1));
    b.memory[0].isa = "avx512";  // chosen by measurement: the same roof
    MemoryRoof l1 = b.memory[0];
    l1.level = "L1";
    b.memory.push_back(l1);
    const auto roofs = compare_roofs(a, b);
    ASSERT_EQ(roofs.size(), 3u);
    EXPECT_EQ(roofs[0].key, "dp avx2 fma 1t");
    EXPECT_FALSE(roofs[0].significant);
    EXPECT_EQ(roofs[1].key, "DRAM load 1t");
    EXPECT_TRUE(roofs[1].significant);
    EXPECT_DOUBLE_EQ(roofs[1].ratio, 1.25);
    EXPECT_EQ(roofs[2].key, "L1 load 1t");
    EXPECT_FALSE(roofs[2].a.has_value());
    EXPECT_TRUE(roofs[2].b.has_value());
}

TEST(Comparison, PointChangePutDownToTheRoofOrTheEfficiency) {
    const MachineModel ma = two_roofs(100, samples(99, 101), 20, samples(19.8, 20.2));
    const MachineModel mb = two_roofs(100, samples(99, 101), 30, samples(29.8, 30.2));
    const Roofline ra = roofline_from_machine(ma, select_roofline(ma, {}, {}));
    const Roofline rb = roofline_from_machine(mb, select_roofline(mb, {}, {}));
    // A triad-like point at 0.1 FLOP/B: 80% of DRAM in A; in B the roof moved x1.5 and it kept its 80%.
    const std::vector<Point> a{point("triad", 1.6e9, 1.6e10, 1.0), point("dgemm", 5e10, 1e9, 1.0),
                               point("gone", 1e9, 1e9, 1.0)};
    const std::vector<Point> b{point("triad", 2.4e9, 2.4e10, 1.0), point("dgemm", 2.5e10, 1e9, 1.0),
                               point("new", 1e9, 1e9, 1.0)};
    const auto changes = compare_points(a, &ra, b, &rb, View::carm);
    ASSERT_EQ(changes.size(), 4u);
    EXPECT_EQ(changes[0].name, "triad");
    EXPECT_TRUE(changes[0].significant);
    EXPECT_NEAR(changes[0].ratio, 1.5, 1e-12);
    EXPECT_EQ(changes[0].cause, "roof");
    EXPECT_NEAR(*changes[0].roof_ratio, 1.5, 1e-12);
    EXPECT_NEAR(*changes[0].efficiency_ratio, 1.0, 1e-12);
    EXPECT_EQ(changes[1].name, "dgemm");  // compute-bound, same peak, half the speed
    EXPECT_EQ(changes[1].cause, "efficiency");
    EXPECT_NEAR(*changes[1].roof_ratio, 1.0, 1e-12);
    EXPECT_EQ(changes[2].name, "gone");
    EXPECT_FALSE(changes[2].b.has_value());
    EXPECT_EQ(changes[3].name, "new");
    EXPECT_FALSE(changes[3].a.has_value());
    // Without rooflines: performance only, no cause.
    const auto bare = compare_points(a, nullptr, b, nullptr, View::carm);
    EXPECT_TRUE(bare[0].significant);
    EXPECT_TRUE(bare[0].cause.empty());
    EXPECT_FALSE(bare[0].roof_ratio.has_value());
}

// A point without FLOPs (a copy, report's "Data movement only") has no rate: its pair was counted
// "within their spread" and as judged, so a copy 3x slower in B read as the same, and a
// comparison of such points alone passed --fail-on-slower (exit 0) with nothing judged.
TEST(Comparison, PointsWithoutARateAreNotJudgedNorCalledTheSame) {
    const std::vector<Point> a{point("copy", 0, 1e9, 0.1), point("dot", 1e9, 1e9, 1.0)};
    const std::vector<Point> b{point("copy", 0, 1e9, 0.3), point("dot", 1e9, 1e9, 1.0)};
    ComparisonInput input;
    input.have_points = true;
    input.points = compare_points(a, nullptr, b, nullptr, View::carm);
    ASSERT_EQ(input.points.size(), 2u);
    EXPECT_FALSE(input.points[0].judged());
    EXPECT_TRUE(input.points[1].judged());
    EXPECT_EQ(compared_count(input).pairs, 2u);
    EXPECT_EQ(compared_count(input).judged, 1u);
    EXPECT_EQ(nothing_compared_text(input), "");
    const std::string text = render_comparison(input, false);
    EXPECT_NE(text.find("not judged: no GFLOP/s rate in A or B"), std::string::npos) << text;
    EXPECT_NE(text.find("0 faster, 0 slower, 1 within their spread, 1 not judged (no rate), 0 in one run only"),
              std::string::npos)
        << text;
    EXPECT_NE(render_comparison(input, true).find("\"judged\": false"), std::string::npos);
    // Only such points: nothing judged, which --fail-on-slower fails (exit 4).
    input.points = compare_points({a[0]}, nullptr, {b[0]}, nullptr, View::carm);
    EXPECT_EQ(compared_count(input).judged, 0u);
    EXPECT_EQ(nothing_compared_text(input),
              "nothing judged: each of the 1 point in both runs has no rate (no FLOPs) in A or B");
    // FLOPs on one side only: that side is named.
    input.points = compare_points({a[1]}, nullptr, {point("dot", 0, 1e9, 1.0)}, nullptr, View::carm);
    EXPECT_FALSE(input.points[0].judged());
    EXPECT_NE(render_comparison(input, false).find("not judged: no GFLOP/s rate in B"), std::string::npos);
}

// Issue 33: a name given to two points (a region entered from two places) compared only the
// first of each and dropped the rest, hiding a 100x slowdown behind a "+9900% FASTER".
TEST(Comparison, PointsOfOneNameAreMatchedInOrderAndNoneIsDropped) {
    const std::vector<Point> a{point("loop", 1e9, 1e9, 1.0), point("loop", 1e11, 1e9, 1.0), point("solo", 1e9, 1e9, 1.0),
                               point("loop", 1e9, 1e9, 1.0)};
    const std::vector<Point> b{point("loop", 1e11, 1e9, 1.0), point("solo", 1e9, 1e9, 1.0), point("loop", 1e9, 1e9, 1.0)};
    const auto changes = compare_points(a, nullptr, b, nullptr, View::carm);
    ASSERT_EQ(changes.size(), 4u);
    EXPECT_EQ(changes[0].name, "loop");
    EXPECT_TRUE(changes[0].repeated);
    EXPECT_EQ(changes[0].occurrence, 1);
    EXPECT_NEAR(changes[0].ratio, 100, 1e-9);
    EXPECT_EQ(changes[1].occurrence, 2);
    EXPECT_NEAR(changes[1].ratio, 0.01, 1e-12);  // the slowdown is there
    EXPECT_TRUE(changes[1].significant);
    EXPECT_EQ(changes[2].name, "solo");
    EXPECT_FALSE(changes[2].repeated);
    EXPECT_TRUE(changes[2].b.has_value());
    EXPECT_EQ(changes[3].occurrence, 3);  // a third "loop" only in A
    EXPECT_FALSE(changes[3].b.has_value());
    // More of a name in B: the extra one is B's alone, with its place among them.
    const auto reversed = compare_points(b, nullptr, a, nullptr, View::carm);
    ASSERT_EQ(reversed.size(), 4u);
    EXPECT_EQ(reversed[3].name, "loop");
    EXPECT_EQ(reversed[3].occurrence, 3);
    EXPECT_FALSE(reversed[3].a.has_value());
    EXPECT_TRUE(reversed[3].repeated);
}

TEST(Comparison, ComparableNameDropsFunctionWrapperSignatureAndCloneSuffixes) {
    EXPECT_EQ(comparable_name("daxpy"), "daxpy");
    EXPECT_EQ(comparable_name("<function daxpy>"), "daxpy");
    EXPECT_EQ(comparable_name("<function daxpy.constprop.0>"), "daxpy");
    EXPECT_EQ(comparable_name("daxpy.isra.0.cold"), "daxpy");
    EXPECT_EQ(comparable_name("kernel.lto_priv.12"), "kernel");
    EXPECT_EQ(comparable_name("ns::dot(double const*, int)"), "ns::dot");
    EXPECT_EQ(comparable_name("stream triad 1 GiB"), "stream triad 1 GiB");  // nothing to drop
    EXPECT_EQ(comparable_name("v1.2"), "v1.2");  // a dot and digits alone are not a clone suffix
    EXPECT_EQ(comparable_name(".part"), ".part");  // never down to nothing
}

TEST(Comparison, ARegionAndItsFunctionAreOnePointWhereTheMeaningIsUnique) {
    const std::vector<Point> a{point("daxpy", 1e9, 1e9, 1.0), point("dot", 1e9, 1e9, 1.0),
                               point("f.part.0", 1e9, 1e9, 1.0), point("f.part.1", 1e9, 1e9, 1.0)};
    const std::vector<Point> b{point("<function daxpy.constprop.0>", 1e9, 1e9, 0.5), point("dot", 1e9, 1e9, 1.0),
                               point("<function f>", 1e9, 1e9, 1.0)};
    const auto changes = compare_points(a, nullptr, b, nullptr, View::carm);
    ASSERT_EQ(changes.size(), 5u);
    EXPECT_EQ(changes[0].name, "daxpy");
    EXPECT_EQ(changes[0].name_b, "<function daxpy.constprop.0>");
    EXPECT_NEAR(changes[0].ratio, 2, 1e-12);
    EXPECT_TRUE(changes[1].name_b.empty());  // same name: no second name
    // Two of A's points mean "f": which one B's is cannot be told, so none is guessed.
    EXPECT_FALSE(changes[2].b.has_value());
    EXPECT_FALSE(changes[3].b.has_value());
    EXPECT_EQ(changes[4].name, "<function f>");
    EXPECT_FALSE(changes[4].a.has_value());
}

TEST(Comparison, KernelPointSpreadFromItsFastestAndSlowestSample) {
    Point p = point("k", 1e9, 1e9, 1.0);
    EXPECT_FALSE(point_figure(p).spread_known);
    p.details = {{"seconds_fastest", 1.0}, {"seconds_slowest", 1.1}};
    const auto f = point_figure(p);
    EXPECT_TRUE(f.spread_known);
    EXPECT_NEAR(f.spread, 0.1, 1e-12);
}

TEST(Comparison, HistoryFlagsStepsBeyondTheSpreadAgainstThePreviousRunWithTheFigure) {
    FigureHistory h;
    h.key = "x";
    const auto run = [](double v) { return HistoryRun{"r", SpreadFigure{v, 0.01, true}}; };
    h.runs = {run(100), run(101), HistoryRun{"missing", std::nullopt}, run(80), run(81), run(100)};
    find_changes(h);
    ASSERT_EQ(h.changes.size(), 2u);
    EXPECT_EQ(h.changes[0].run, 3u);  // against run 1 (run 2 has no figure)
    EXPECT_NEAR(h.changes[0].ratio, 80.0 / 101, 1e-12);
    EXPECT_EQ(h.changes[1].run, 5u);
}

// A second pass added at the same rate doubled a dot product's time (0.193 s to 0.399 s) while
// its GFLOP/s moved 3%, inside the band: compare said 'same' and --fail-on-slower exited 0. A pair
// whose counted work differs beyond the band is judged on its time (for one command line).
TEST(Comparison, APointWhoseWorkChangedIsJudgedOnItsTime) {
    const std::vector<Point> a{point("dot", 0.8e9, 6.4e9, 0.193), point("less", 0.8e9, 6.4e9, 0.2),
                               point("alike", 0.8e9, 6.4e9, 0.2)};
    const std::vector<Point> b{point("dot", 1.6e9, 12.8e9, 0.399), point("less", 0.4e9, 6.4e9, 0.15),
                               point("alike", 0.801e9, 6.4e9, 0.2)};
    auto changes = compare_points(a, nullptr, b, nullptr, View::carm);
    ASSERT_EQ(changes.size(), 3u);
    // The rate alone: x0.967, inside the 5% band of points with no recorded spread: 'same'.
    EXPECT_FALSE(changes[0].significant);
    ASSERT_TRUE(changes[0].work.has_value());
    EXPECT_NEAR(changes[0].work->work_ratio, 2.0, 1e-12);
    EXPECT_NEAR(changes[0].work->time_ratio, 0.399 / 0.193, 1e-12);
    EXPECT_TRUE(changes[0].work->time_changed);
    ASSERT_TRUE(changes[1].work.has_value());  // half the work in 0.75 of the time: faster, at 0.667 of the rate
    EXPECT_TRUE(changes[1].slower());          // on its rate, before it is judged on time
    EXPECT_FALSE(changes[2].work.has_value());  // 0.1% more FLOPs (another build's reduction): the same work
    judge_work_changes_on_time(changes);
    EXPECT_TRUE(changes[0].by_time);
    EXPECT_TRUE(changes[0].significant);
    EXPECT_TRUE(changes[0].slower());
    EXPECT_EQ(changes[0].cause, "work");
    EXPECT_TRUE(changes[1].by_time);
    EXPECT_FALSE(changes[1].slower());
    EXPECT_TRUE(changes[1].faster());
    EXPECT_FALSE(changes[2].by_time);
    EXPECT_FALSE(changes[2].significant);

    // history: the same step, a run of one command line doing twice the work.
    FigureHistory h;
    h.key = "dot";
    for (const auto& p : {a[0], b[0]}) h.runs.push_back({"r", point_figure(p)});
    find_changes(h);  // a series named by what ran (no command line): its rate, x0.967, is judged
    EXPECT_TRUE(h.changes.empty());
    h.command = "./dot 2000 200000";
    find_changes(h);
    ASSERT_EQ(h.changes.size(), 1u);
    ASSERT_TRUE(h.changes[0].work.has_value());
    EXPECT_TRUE(h.changes[0].slower());
    // Twice the work in the same time: a change of the program, flagged, and not slower.
    h.runs = {{"r", point_figure(point("k", 1e9, 1e9, 1.0))}, {"r", point_figure(point("k", 2e9, 1e9, 1.0))}};
    find_changes(h);
    ASSERT_EQ(h.changes.size(), 1u);
    ASSERT_TRUE(h.changes[0].work.has_value());
    EXPECT_FALSE(h.changes[0].work->time_changed);
    EXPECT_FALSE(h.changes[0].slower());
}

TEST(Comparison, RoofHistoriesFollowEachRoofAcrossModels) {
    const auto m1 = two_roofs(100, samples(99, 101), 20, samples(19.9, 20.1));
    auto m2 = m1;
    m2.memory[0].gbs = 15;
    const auto h = roof_histories({m1, m2, m1}, {"#1", "#2", "#3"});
    ASSERT_EQ(h.size(), 2u);
    EXPECT_EQ(h[0].key, "dp avx2 fma 1t");
    EXPECT_TRUE(h[0].changes.empty());
    EXPECT_EQ(h[1].key, "DRAM load 1t");
    ASSERT_EQ(h[1].changes.size(), 2u);
    EXPECT_EQ(h[1].changes[0].run, 1u);
    EXPECT_NEAR(h[1].changes[0].ratio, 0.75, 1e-12);
}

TEST(Comparison, StoredFixtureComparedWithItselfHasNoChange) {
    const auto m = read_machine_file(data_dir + "/report-machine.json");
    for (const auto& r : compare_roofs(m, m)) {
        EXPECT_FALSE(r.significant) << r.key;
        EXPECT_DOUBLE_EQ(r.ratio, 1.0) << r.key;
    }
}

// Audit h40: L2 copy 1t at 64 KiB (118 GB/s) and at 512 KiB (94.3, bench --working-set 512kB)
// were one series. A roof is the best of the sizes its run measured in the level: two runs'
// roofs are alike when each run measured the other's winning size, else they are two roofs.
TEST(Comparison, RoofsAtWorkingSetsTheOtherRunDidNotMeasureAreAnotherRoof) {
    const std::vector<std::uint64_t> planned{65536, 200704, 626688};  // a default run's L2 sizes
    MachineModel a, b, c, d, spec;
    add_memory(a, "L2", 118, 65536, planned);
    add_memory(b, "L2", 117, 200704, planned);  // another size won: the same roof
    add_memory(c, "L2", 94.3, 524288, {524288});  // bench --working-set 512kB
    add_memory(d, "L2", 94.0, 524288, {524288});
    add_memory(spec, "L2", 100, 0, {});  // a spec sheet: no working set

    const auto same = compare_roofs(a, b);
    ASSERT_EQ(same.size(), 1u);
    EXPECT_EQ(same[0].key, "L2 copy 1t");
    EXPECT_TRUE(same[0].a && same[0].b);
    EXPECT_EQ(same[0].working_set_a, 65536u);
    EXPECT_EQ(same[0].working_set_b, 200704u);

    const auto apart = compare_roofs(a, c);
    ASSERT_EQ(apart.size(), 2u);
    EXPECT_EQ(apart[0].key, "L2 copy 1t at 64 KiB");
    EXPECT_TRUE(apart[0].a && !apart[0].b);
    EXPECT_TRUE(apart[0].other_working_set);
    EXPECT_EQ(apart[1].key, "L2 copy 1t at 512 KiB");
    EXPECT_TRUE(!apart[1].a && apart[1].b);
    EXPECT_TRUE(apart[1].other_working_set);
    EXPECT_FALSE(apart[0].significant || apart[1].significant);  // -20%, but not like with like

    // One size measured by both (the winner of one among the sizes of the other is not enough).
    MachineModel e;
    add_memory(e, "L2", 117.5, 200704, {200704});
    EXPECT_EQ(compare_roofs(a, e).size(), 2u);
    EXPECT_EQ(compare_roofs(b, e).size(), 1u);  // both at 196 KiB
    // A spec sheet's roof has no working set: compared with any.
    const auto with_spec = compare_roofs(spec, c);
    ASSERT_EQ(with_spec.size(), 1u);
    EXPECT_EQ(with_spec[0].key, "L2 copy 1t");

    const auto h = roof_histories({a, c, b, d}, {"#1", "#2", "#3", "#4"});
    ASSERT_EQ(h.size(), 2u);
    EXPECT_EQ(h[0].key, "L2 copy 1t at 64 KiB, 196 KiB");
    EXPECT_TRUE(h[0].runs[0].figure && !h[0].runs[1].figure && h[0].runs[2].figure && !h[0].runs[3].figure);
    EXPECT_TRUE(h[0].changes.empty());
    EXPECT_EQ(h[1].key, "L2 copy 1t at 512 KiB");
    EXPECT_TRUE(!h[1].runs[0].figure && h[1].runs[1].figure && !h[1].runs[2].figure && h[1].runs[3].figure);
    EXPECT_TRUE(h[1].changes.empty());
    // Runs of one plan alone: the plain key, however many (a long history groups plans, not runs).
    std::vector<MachineModel> many;
    std::vector<std::string> labels;
    for (int i = 0; i < 3000; ++i) {
        many.push_back(i % 2 ? a : b);
        labels.push_back("#" + std::to_string(i + 1));
    }
    const auto long_history = roof_histories(many, labels);
    ASSERT_EQ(long_history.size(), 1u);
    EXPECT_EQ(long_history[0].key, "L2 copy 1t");
}

TEST(Comparison, AuditModelWithEveryComputeRoof30PercentLowerIsFlaggedRoofByRoof) {
    const auto a = read_machine_file(data_dir + "/compare/epyc-vm.json");
    auto b = a;
    for (auto& c : b.compute) {
        c.gflops *= 0.7;
        for (double* x : {&c.stats.median, &c.stats.min, &c.stats.max}) *x *= 0.7;
    }
    for (const auto& r : compare_roofs(a, b)) {
        const bool compute = r.unit == "GFLOP/s";
        EXPECT_EQ(r.significant, compute) << r.key << " threshold " << r.threshold;
        if (compute) {
            EXPECT_NEAR(r.ratio, 0.7, 1e-9) << r.key;
        }
    }
}

// Audit h40: history --host spr1 took the CPU of the newest model, another host's.
TEST(Comparison, HistoryOfAHostTakesThatHostsLatestCpu) {
    const auto stored = [](std::int64_t id, const std::string& host, const std::string& cpu) {
        StoredMachine m;
        m.id = id;
        m.hostname = host;
        m.cpu_model = cpu;
        return m;
    };
    const std::vector<StoredMachine> machines{stored(1, "vm", "AMD EPYC"), stored(2, "spr1", "Xeon 8480+"),
                                              stored(3, "spr1", "Xeon 8480+ rev2"), stored(4, "vm", "AMD EPYC")};
    auto m = history_machine(machines, "", "");
    ASSERT_TRUE(m);
    EXPECT_EQ(m->host, "vm");
    EXPECT_EQ(m->cpu, "AMD EPYC");
    m = history_machine(machines, "spr1", "");
    ASSERT_TRUE(m);
    EXPECT_EQ(m->host, "spr1");
    EXPECT_EQ(m->cpu, "Xeon 8480+ rev2");  // that host's latest
    m = history_machine(machines, "", "Xeon 8480+");
    ASSERT_TRUE(m);
    EXPECT_EQ(m->host, "spr1");
    m = history_machine(machines, "spr1", "Xeon 8480+");
    ASSERT_TRUE(m);
    EXPECT_EQ(m->cpu, "Xeon 8480+");
    EXPECT_FALSE(history_machine(machines, "nope", ""));
    EXPECT_FALSE(history_machine(machines, "vm", "Xeon 8480+"));
    EXPECT_FALSE(history_machine({}, "", ""));
}

// Two back-to-back bench --quick runs: DRAM triad 1t 49.2 -> 45.8 (x0.931) read 'SLOWER (-7%)'
// because its spread was its two best bursts (0.4%), the band fell to the 5% floor, while the
// CV of its samples was 13%; and L2 copy / load 2t (x1.067, x1.068) read 'FASTER' though run A
// had marked them unstable (2 bursts set aside, CV 8%). Synthetic models with those figures.
TEST(Comparison, BackToBackRunsAreJudgedWithinTheirCvAndUnstableRoofsAreNotJudged) {
    const auto a = read_machine_file(data_dir + "/compare/back-to-back-a.json");
    const auto b = read_machine_file(data_dir + "/compare/back-to-back-b.json");
    const auto roofs = compare_roofs(a, b);
    const auto find = [&](const std::string& key) -> const RoofChange& {
        for (const auto& r : roofs)
            if (r.key == key) return r;
        throw std::runtime_error("no roof " + key);
    };
    const auto& dram = find("DRAM triad 1t");
    ASSERT_TRUE(dram.a && dram.b);
    EXPECT_NEAR(dram.ratio, 45.8 / 49.2, 1e-12);
    EXPECT_TRUE(dram.judged());
    EXPECT_FALSE(dram.significant);
    EXPECT_EQ(dram.a->source, SpreadSource::cv);  // 13%, not the top bursts' 0.4%
    EXPECT_NEAR(dram.threshold, 0.13, 1e-12);
    const auto source = band_source(*dram.a, *dram.b);
    EXPECT_EQ(source.side, 'A');
    EXPECT_EQ(source.source, SpreadSource::cv);
    EXPECT_EQ(dram.a->bursts, 8);
    for (const std::string key : {"L2 copy 2t", "L2 load 2t"}) {
        const auto& r = find(key);
        ASSERT_TRUE(r.a && r.b) << key;
        EXPECT_GT(r.ratio, 1.06) << key;
        EXPECT_TRUE(r.a->unstable) << key;
        EXPECT_EQ(r.a->set_aside, 2) << key;
        EXPECT_FALSE(r.judged()) << key;
        EXPECT_FALSE(r.significant) << key;  // neither FASTER nor, the other way round, SLOWER
    }
    for (const auto& r : compare_roofs(b, a)) EXPECT_FALSE(r.significant) << r.key;
    // A quiet pair still takes the floor, and a real drop beyond the CV still counts.
    const auto& copy = find("DRAM copy 2t");
    EXPECT_TRUE(band_source(*copy.a, *copy.b).floor);
    auto slower = b;
    for (auto& r : slower.memory)
        if (r.level == "DRAM" && r.threads == 1) r.gbs = 49.2 * 0.85;  // x0.85: beyond 1 / 1.13
    EXPECT_TRUE(compare_roofs(a, slower)[4].significant);
}

// history: a run whose roof is unstable is neither judged nor judged against; the next run is
// judged against the last stable one.
// A point without FLOPs has 0 GFLOP/s whatever its time: a marker region 'copy' (memcpy, no FLOPs)
// measured twice from one command line took 0.028 s, then 0.095 s, and history said 'none beyond
// the spread' and passed --fail-on-slower. Such runs are not judged, nor judged against, and a
// figure with no rate in any run says so.
TEST(Comparison, HistoryDoesNotJudgeRunsWithoutARate) {
    const auto figure = [](double gflops) {
        SpreadFigure f;
        f.value = gflops;
        f.floor = kMinimumChange;
        return f;
    };
    FigureHistory copy;
    copy.key = "copy";
    copy.unit = "GFLOP/s";
    copy.command = "./cp 16000000";
    copy.runs = {{"#1", figure(0)}, {"#2", figure(0)}};
    find_changes(copy);
    EXPECT_TRUE(copy.changes.empty());
    EXPECT_EQ(copy.unjudged, (std::vector<std::size_t>{0, 1}));
    const std::string text = render_history({"point 'copy'", {copy}}, false);
    EXPECT_NE(text.find("not judged: no GFLOP/s rate in any run (no FLOPs counted)"), std::string::npos) << text;
    EXPECT_EQ(text.find("none beyond the spread"), std::string::npos) << text;
    // A run without a rate among rated ones: left out, the next judged against the one before it.
    FigureHistory dot = copy;
    dot.key = "dot";
    dot.runs = {{"#1", figure(2.0)}, {"#2", figure(0)}, {"#3", figure(1.0)}};
    find_changes(dot);
    EXPECT_EQ(dot.unjudged, (std::vector<std::size_t>{1}));
    ASSERT_EQ(dot.changes.size(), 1u);
    EXPECT_EQ(dot.changes[0].run, 2u);
    EXPECT_NEAR(dot.changes[0].ratio, 0.5, 1e-12);
    EXPECT_NE(render_history({"point 'dot'", {dot}}, false).find("run 2: no rate, not judged"), std::string::npos);
}

TEST(Comparison, HistoryLeavesOutRunsWhoseRoofIsUnstable) {
    Stats quiet = samples(99, 101, 40);
    quiet.cv = 0.01;
    Stats noisy = quiet;
    noisy.stable = false;
    noisy.cv = 0.08;
    const auto m1 = two_roofs(100, quiet, 20, quiet);
    const auto m2 = two_roofs(70, noisy, 20, quiet);  // an unstable low reading
    const auto m3 = two_roofs(101, quiet, 20, quiet);
    const auto m4 = two_roofs(80, quiet, 20, quiet);   // a real drop against run 3
    const auto h = roof_histories({m1, m2, m3, m4}, {"#1", "#2", "#3", "#4"});
    ASSERT_EQ(h.size(), 2u);
    ASSERT_EQ(h[0].unjudged.size(), 1u);
    EXPECT_EQ(h[0].unjudged[0], 1u);
    ASSERT_EQ(h[0].changes.size(), 1u);  // not run 2 (x0.70) nor run 3 (x1.44 over run 2)
    EXPECT_EQ(h[0].changes[0].run, 3u);
    EXPECT_NEAR(h[0].changes[0].ratio, 80.0 / 101, 1e-12);
    EXPECT_TRUE(h[1].changes.empty());
}

// history --fail-on-slower judges the latest run alone: it exited 0 when no figure of that run
// could be judged (every run unstable or without a rate), so no slowdown was ruled out; compare
// says 'nothing judged' there (exit 4), and so does history now.
TEST(Comparison, HistorySaysWhenNothingInTheLatestRunWasJudged) {
    const auto figure = [](double value, bool unstable = false) {
        SpreadFigure f;
        f.value = value;
        f.floor = kRoofMinimumChange;
        f.unstable = unstable;
        return f;
    };
    const auto history = [](std::vector<HistoryRun> runs) {
        FigureHistory h;
        h.key = "DRAM copy 1t";
        h.unit = "GB/s";
        h.runs = std::move(runs);
        find_changes(h);
        return h;
    };
    using Latest = FigureHistory::Latest;
    const auto stable_then_same = history({{"#1 a", figure(20)}, {"#2 b", figure(20)}});
    EXPECT_EQ(stable_then_same.latest(), Latest::judged);  // judged, and no change
    EXPECT_EQ(history({{"#1", figure(20)}, {"#2", figure(20, true)}}).latest(), Latest::unstable);
    EXPECT_EQ(history({{"#1", figure(20)}, {"#2", figure(0)}}).latest(), Latest::no_rate);
    EXPECT_EQ(history({{"#1", figure(20)}, {"#2", std::nullopt}}).latest(), Latest::absent);
    EXPECT_EQ(history({{"#1", figure(20, true)}, {"#2", figure(20)}}).latest(), Latest::nothing_before);
    EXPECT_EQ(history({{"#1", std::nullopt}, {"#2", figure(20)}}).latest(), Latest::nothing_before);
    EXPECT_EQ(history({{"#1", figure(20)}}).latest(), Latest::nothing_before);
    // Judged against the last stable run before it, past an unstable one.
    EXPECT_EQ(history({{"#1", figure(20)}, {"#2", figure(20, true)}, {"#3", figure(20)}}).latest(), Latest::judged);

    // One figure judged in the latest run is enough: nothing to say.
    const auto unstable_latest = history({{"#1 a", figure(20)}, {"#7 b", figure(14, true)}});
    EXPECT_EQ(nothing_judged_in_latest_run_text({"roofs", {unstable_latest, stable_then_same}}), "");
    const std::string none =
        nothing_judged_in_latest_run_text({"roofs", {unstable_latest, history({{"#1 a", figure(20)}, {"#7 b", figure(0)}})}});
    EXPECT_EQ(none, "nothing judged: no figure of the latest run (run 2, #7) was judged against a run before it: 1 of "
                    "2 unstable in it, 1 of 2 without a rate in it (no FLOPs)");
    EXPECT_EQ(nothing_judged_in_latest_run_text({"roofs", {history({{"#3 2026-11-29T00:00:00Z quick", figure(20)}})}}),
              "nothing judged: the history holds one run (run 1, #3), with no run before it to judge it against");
    // The text says so under the table; a history with a judged latest run does not.
    const std::string text = render_history({"roofs", {unstable_latest}}, false);
    EXPECT_NE(text.find("\nNothing judged: no figure of the latest run (run 2, #7) was judged against a run before "
                        "it: 1 of 1 unstable in it.\n"),
              std::string::npos)
        << text;
    EXPECT_EQ(render_history({"roofs", {stable_then_same}}, false).find("Nothing judged"), std::string::npos);
}
