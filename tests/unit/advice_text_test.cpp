// render/advice_text: core's typed advice phrased for people.
#include "render/advice_text.hpp"

#include <gtest/gtest.h>

#include <string>
#include <utility>

using namespace roofline;

namespace {

// A next step of `kind` capped by `roof` of `level` at `cap` (the fields a rule fills).
NextStep step(NextStep::Kind kind, std::string level, std::string roof, double cap) {
    NextStep s;
    s.kind = kind;
    s.level = std::move(level);
    s.roof = std::move(roof);
    s.cap = cap;
    return s;
}

Roofline toy() {
    Roofline r;
    r.compute = {"DP peak", "", 100};
    r.bandwidth = {{"L2 load", "L2", 200}, {"DRAM copy", "DRAM", 20}};
    return r;
}

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

} // namespace

TEST(AdviceText, ASpecSheetsOwnWordsWin) {
    const Ceiling c{"w/out SIMD", CeilingKind::compute, "simd", "", 10, "use packed instructions"};
    EXPECT_EQ(ceiling_advice(toy(), c), "use packed instructions");
}

TEST(AdviceText, KnownCategoriesArePhrased) {
    const auto r = toy();
    EXPECT_TRUE(contains(ceiling_advice(r, {"no FMA", CeilingKind::compute, "fma", "", 50, ""}), "FMA"));
    EXPECT_TRUE(contains(ceiling_advice(r, {"no ILP", CeilingKind::compute, "ilp", "", 50, ""}), "independent"));
    // The same category reads differently for a compute and a bandwidth ceiling.
    EXPECT_TRUE(contains(ceiling_advice(r, {"1 thread", CeilingKind::compute, "threads", "", 50, ""}), "parallelize"));
    EXPECT_TRUE(contains(ceiling_advice(r, {"L2 1 thread", CeilingKind::bandwidth, "threads", "L2", 50, ""}),
                         "use all cores"));
    // A pattern ceiling points at the pattern the level's roof was measured with.
    EXPECT_TRUE(contains(ceiling_advice(r, {"DRAM load", CeilingKind::bandwidth, "pattern", "DRAM", 15, ""}),
                         "toward copy (DRAM)"));
    // Loads alone: no store streams to cut; what the faster pattern has that they lack is writes.
    const auto reads = ceiling_advice(r, {"DRAM load", CeilingKind::bandwidth, "pattern", "DRAM", 15, "", true});
    EXPECT_TRUE(contains(reads, "slower here than copy (DRAM)")) << reads;
    EXPECT_FALSE(contains(reads, "store streams")) << reads;
    // An unknown category names the ceiling.
    EXPECT_EQ(ceiling_advice(r, {"odd", CeilingKind::compute, "mine", "", 5, ""}), "lift the odd ceiling");
}

TEST(AdviceText, AStoringCeilingThatStoresLessThanItsRoofIsNotToldToStoreLess) {
    // A triad (a third of its bytes stored) under a copy+WA roof (a half): slower for another reason
    // than its stores, so "store a smaller share" pointed the wrong way (an audit's chart legend).
    Roofline r = toy();
    r.bandwidth = {{"L2 copy+WA", "L2", 177}, {"DRAM copy+WA", "DRAM", 52}};
    r.bandwidth[0].store_share = 0.5;
    r.bandwidth[1].store_share = 0.5;
    const auto triad = ceiling_advice(r, {"L2 triad+WA", CeilingKind::bandwidth, "pattern", "L2", 150, ""});
    EXPECT_TRUE(contains(triad, "toward copy+WA (L2), which runs faster here than triad: copy+WA stores 50.0% of its bytes, triad 33.3%")) << triad;
    EXPECT_FALSE(contains(triad, "store a smaller share")) << triad;
    // A pattern that stores more than the roof's (a store-only stream under copy): as before.
    const auto stores = ceiling_advice(r, {"DRAM store", CeilingKind::bandwidth, "pattern", "DRAM", 30, ""});
    EXPECT_TRUE(contains(stores, "store a smaller share")) << stores;
}

TEST(AdviceText, NextStepsCarryTheirNumbersAndUnits) {
    auto r = toy();
    r.work_unit = "exchange";
    const NextStep raise = step(NextStep::Kind::raise_intensity, "DRAM", "DRAM copy", 12.5);
    const auto text = next_step_text(r, raise);
    EXPECT_TRUE(contains(text, "at DRAM")) << text;
    EXPECT_TRUE(contains(text, "12.5 Gexchange/s")) << text;
    const NextStep reach = step(NextStep::Kind::reach_compute, "", "DP peak", 100);
    EXPECT_TRUE(contains(next_step_text(r, reach), "DP peak roof allows 100 Gexchange/s"));
}

TEST(AdviceText, LimitingMetricFollowsTheCeilingAbove) {
    const auto r = toy();
    Analysis a;
    a.memory_bound = true;
    a.binding_level = "DRAM";
    EXPECT_EQ(limiting_metric_text(r, a), "GB/s at DRAM");
    a.upper = Ceiling{"DRAM 1 thread", CeilingKind::bandwidth, "threads", "DRAM", 10, ""};
    EXPECT_EQ(limiting_metric_text(r, a), "GB/s at DRAM (DRAM 1 thread)");
    a.upper = Ceiling{"no FMA", CeilingKind::compute, "fma", "", 50, ""};
    EXPECT_EQ(limiting_metric_text(r, a), "GFLOP/s (no FMA)");
}

TEST(AdviceText, LiftsName) {
    KernelPrediction::Lift nt{KernelPrediction::Lift::Kind::non_temporal_stores, {"a", "b"}, "", 0, 0, "", 2};
    EXPECT_EQ(lift_text(nt, "FLOP"), "non-temporal stores for a, b (no write-allocate reads)");
    KernelPrediction::Lift more{KernelPrediction::Lift::Kind::intensity_at_level, {}, "DRAM", 4.43, 0.0625, "DP peak", 73.6};
    EXPECT_EQ(lift_text(more, "FLOP"), "intensity at DRAM of 4.43 FLOP/B (now 0.0625) reaches the DP peak roof");
}

TEST(AdviceText, ABusBoundPointIsToldToShipLessNotToBlockLoops) {
    const auto r = toy();
    const NextStep bus = step(NextStep::Kind::raise_intensity, "PCIe", "PCIe h2d pinned", 520);
    EXPECT_TRUE(contains(next_step_text(r, bus), "ship less over PCIe"));
    EXPECT_FALSE(contains(next_step_text(r, bus), "block loops"));
    const NextStep net = step(NextStep::Kind::raise_intensity, "network", "network", 10);
    EXPECT_TRUE(contains(next_step_text(r, net), "communicate less"));
    const NextStep dram = step(NextStep::Kind::raise_intensity, "DRAM", "DRAM copy", 10);
    EXPECT_TRUE(contains(next_step_text(r, dram), "block loops"));
}

TEST(AdviceText, ThroughputCoefficientSaysWhetherShippedBytesAreReused) {
    BusThroughput shipped{"PCIe", 10, "DRAM", 40, 0.25};
    EXPECT_TRUE(contains(throughput_text(shipped, "FLOP"), "a = TI / I(DRAM) = 0.25"));
    EXPECT_TRUE(contains(throughput_text(shipped, "FLOP"), "carries 4"));
    BusThroughput reused{"PCIe", 40, "HBM", 10, 4};
    EXPECT_TRUE(contains(throughput_text(reused, "FLOP"), "used 4"));
    BusThroughput alone{"NVLink", 3, "", 0, 0};
    EXPECT_TRUE(contains(throughput_text(alone, "FLOP"), "no DRAM/HBM bytes"));
}
