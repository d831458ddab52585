// compare and history on paper: thresholds from recorded spreads, roofs matched
// across machines, a point's change put down to its roof or its efficiency, and
// changes found along a series of runs.
#include "core/comparison.hpp"
#include "core/machine_roofline.hpp"
#include "io/machine_json.hpp"

#include <gtest/gtest.h>

#include <filesystem>

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
    EXPECT_FALSE(changed(SpreadFigure{0, 0, false}, wide));  // nothing to compare with
}

TEST(Comparison, RoofFigureSpreadIsTheSampleRangeOverTheFigure) {
    const auto f = roof_figure(50, samples(45, 55));
    EXPECT_TRUE(f.spread_known);
    EXPECT_DOUBLE_EQ(f.spread, 0.2);
    EXPECT_FALSE(roof_figure(50, samples(50, 50, 1)).spread_known);  // one sample says nothing of spread
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
