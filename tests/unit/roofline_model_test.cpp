// The model's maths against worked numbers from the Roofline literature.
#include "core/level.hpp"
#include "core/machine_roofline.hpp"
#include "core/roofline.hpp"
#include "render/report.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>

#include <map>

using namespace roofline;

TEST(RooflineMath, AttainableIsTheLowerOfPeakAndBandwidthTimesIntensity) {
    // Williams et al.: 3 GFLOP/s peak, 10 GB/s, 0.05 FLOP/byte -> 0.5 GFLOP/s.
    EXPECT_DOUBLE_EQ(attainable(3.0, 10.0, 0.05), 0.5);
    EXPECT_DOUBLE_EQ(attainable(3.0, 10.0, 1.0), 3.0);
    // Vector triad a = b + c*d with write-allocate: 2 FLOP / 40 B; 85.8 GF/s, 29 GB/s -> 1.45.
    EXPECT_NEAR(attainable(85.8, 29.0, 2.0 / 40.0), 1.45, 1e-12);
    // Dense matrix-vector at 0.25 FLOP/byte on 32 GB/s -> 8 GFLOP/s.
    EXPECT_DOUBLE_EQ(attainable(100.0, 32.0, 0.25), 8.0);
    // Tall-and-skinny A^T B, double, M = N = 16 << K: I ~ M/8 = 2 -> 104 GF/s on 52 GB/s.
    EXPECT_DOUBLE_EQ(attainable(1000.0, 52.0, 16.0 / 8.0), 104.0);
}

TEST(RooflineMath, RidgePointsAndBalances) {
    // Opteron X2: 17.6 GF/s, 15 GB/s; Opteron X4: 73.6 GF/s, 16.6 GB/s -> ridge about 4.4 FLOP/byte.
    EXPECT_NEAR(ridge_point(17.6, 15.0), 1.1733, 1e-3);
    EXPECT_NEAR(ridge_point(73.6, 16.6), 4.43, 0.01);
    EXPECT_NEAR(machine_balance(73.6, 16.6), 16.6 / 73.6, 1e-12);
    EXPECT_DOUBLE_EQ(code_balance(0.25), 4.0);
    EXPECT_DOUBLE_EQ(code_balance(0), 0);
}

TEST(RooflineMath, CoprocessorBusIsItsOwnRoof) {
    // P = min(peak, B_mem I_mem, B_bus I_bus): a kernel reused on the device is bus-bound
    // only when little work is done per byte shipped.
    EXPECT_DOUBLE_EQ(coprocessor_attainable(1000, 2000, 10, 25, 1), 25);
    EXPECT_DOUBLE_EQ(coprocessor_attainable(1000, 2000, 0.1, 25, 100), 200);
    EXPECT_DOUBLE_EQ(coprocessor_attainable(1000, 2000, 10, 25, 100), 1000);
}

namespace {

Roofline toy() {
    Roofline r;
    r.label = "toy";
    r.compute = {"DP peak", "", 100};
    r.bandwidth = {{"L1 load", "L1", 400}, {"L2 load", "L2", 200}, {"DRAM load", "DRAM", 20}};
    r.ceilings = {{"FMA only", CeilingKind::compute, "balance", "", 75, "interleave adds"},
                  {"no FMA", CeilingKind::compute, "fma", "", 50, "use FMA"},
                  {"scalar (no SIMD)", CeilingKind::compute, "simd", "", 12.5, "vectorize"},
                  {"DRAM 1 thread", CeilingKind::bandwidth, "threads", "DRAM", 10, "use all cores"}};
    return r;
}

Point point(double gflops, double l1, double l2, double dram) {
    Point p;
    p.name = "k";
    p.work = gflops * 1e9;
    p.seconds = 1;
    if (l1 > 0) p.bytes["L1"] = l1;
    if (l2 > 0) p.bytes["L2"] = l2;
    if (dram > 0) p.bytes["DRAM"] = dram;
    return p;
}

} // namespace

TEST(RooflineAnalysis, MemoryBoundPointBetweenBandwidthCeilingAndRoof) {
    // 15e9 FLOP over 15e9 DRAM bytes: I = 1, DRAM roof allows 20, the 1-thread ceiling 10.
    const auto a = analyze(toy(), point(15, 30e9, 30e9, 15e9), View::carm);
    EXPECT_TRUE(a.memory_bound);
    EXPECT_EQ(a.binding_roof, "DRAM load");
    EXPECT_EQ(a.binding_level, "DRAM");
    EXPECT_DOUBLE_EQ(a.attainable, 20);
    EXPECT_DOUBLE_EQ(a.efficiency, 15.0 / 20);
    EXPECT_DOUBLE_EQ(a.intensity, 1);
    ASSERT_TRUE(a.lower);
    EXPECT_EQ(a.lower->name, "scalar (no SIMD)");  // 12.5 beats the 1-thread DRAM ceiling (10) here
    EXPECT_FALSE(a.upper);                         // only the DRAM roof is above
    ASSERT_FALSE(a.next_steps.empty());
    EXPECT_EQ(a.next_steps.back().kind, NextStep::Kind::raise_intensity);
    EXPECT_EQ(a.next_steps.back().level, "DRAM");
    EXPECT_DOUBLE_EQ(a.next_steps.back().cap, 20);
    EXPECT_EQ(a.region, Region::both);
}

TEST(RooflineAnalysis, SandwichBetweenComputeCeilings) {
    // High intensity everywhere: compute-bound; 60 GF/s sits between "no FMA" (50) and "FMA only" (75).
    const auto a = analyze(toy(), point(60, 1e9, 1e9, 1e9), View::carm);
    EXPECT_FALSE(a.memory_bound);
    EXPECT_EQ(a.binding_roof, "DP peak");
    ASSERT_TRUE(a.upper);
    ASSERT_TRUE(a.lower);
    EXPECT_EQ(a.upper->name, "FMA only");
    EXPECT_EQ(a.lower->name, "no FMA");
    ASSERT_FALSE(a.next_steps.empty());
    EXPECT_EQ(a.next_steps.front().kind, NextStep::Kind::lift_ceiling);
    EXPECT_EQ(a.next_steps.front().ceiling.name, "FMA only");
    EXPECT_EQ(a.next_steps.back().kind, NextStep::Kind::reach_compute);
    EXPECT_EQ(a.region, Region::compute_only);
    // Headroom to the compute roof only: every bandwidth roof lies above it at I = 60 (an audit
    // saw "DP peak 1.88x, L1 load 1.88x, DRAM load 1.88x", the peak's figure under their names).
    ASSERT_EQ(a.headroom.size(), 1u);
    EXPECT_EQ(a.headroom[0].roof, "DP peak");
    // The memory-bound point: L1 (400 x 0.5 = 200) and L2 (200 x 0.5 = 100) do not lie under the
    // peak (100) and are left out; DRAM (20 x 1 = 20) does.
    const auto m = analyze(toy(), point(15, 30e9, 30e9, 15e9), View::carm);
    ASSERT_EQ(m.headroom.size(), 2u);
    EXPECT_EQ(m.headroom[0].roof, "DP peak");
    EXPECT_EQ(m.headroom[1].roof, "DRAM load");
    EXPECT_DOUBLE_EQ(m.headroom[1].factor, 20.0 / 15);
}

TEST(RooflineAnalysis, CarmAndOrmDifferForCacheBoundPoints) {
    // L2 traffic high, DRAM traffic tiny: CARM sees the L2 limit, ORM (DRAM bytes only) does not.
    Point q = point(10, 1e9, 2e11, 1e7);  // I_L2 = 0.05 -> L2 allows 10 GF/s; I_DRAM = 1000
    const auto carm = analyze(toy(), q, View::carm);
    const auto orm = analyze(toy(), q, View::orm);
    EXPECT_EQ(carm.binding_level, "L2");
    EXPECT_DOUBLE_EQ(carm.attainable, 10);
    EXPECT_FALSE(orm.memory_bound);  // DRAM intensity 1000: compute-bound in the ORM view
    EXPECT_DOUBLE_EQ(orm.attainable, 100);
    EXPECT_EQ(bounding_levels(toy(), q, View::orm), std::vector<std::string>{"DRAM"});
}

TEST(RooflineAnalysis, RegionsFollowTheCeilingCrossings) {
    // Crossings: lowest compute (12.5) / DRAM roof (20) = 0.625; roof (100) / lowest DRAM ceiling (10) = 10.
    EXPECT_EQ(analyze(toy(), point(1, 0, 0, 10e9), View::orm).region, Region::memory_only);   // I = 0.1
    EXPECT_EQ(analyze(toy(), point(5, 0, 0, 2.5e9), View::orm).region, Region::both);         // I = 2
    EXPECT_EQ(analyze(toy(), point(50, 0, 0, 2.5e9), View::orm).region, Region::compute_only); // I = 20
}

TEST(RooflineAnalysis, TheZoneOfAPointBoundAtSeveralLevelsIsEveryLevels) {
    // Compute-bound (L1 400 x 1, L2 200 x 0.6 = 120, DRAM 20 x 50: all above the peak of 100), right
    // of DRAM's crossing (10), but an L2 ceiling (150 x 0.6 = 90) lies under the peak: a memory
    // optimization at L2 can still help, so the zone is "both", not the DRAM level's compute-only
    // (an audit's program was called compute-only beside a first step at its L3 access pattern).
    Roofline r = toy();
    r.ceilings.push_back({"L2 copy", CeilingKind::bandwidth, "pattern", "L2", 150, ""});
    const auto a = analyze(r, point(60, 60e9, 100e9, 1.2e9), View::carm);
    EXPECT_FALSE(a.memory_bound);
    EXPECT_EQ(a.intensity_level, "DRAM");
    EXPECT_EQ(a.region, Region::both);
    // Without that ceiling every level is right of its crossing: compute-only.
    EXPECT_EQ(analyze(toy(), point(60, 60e9, 100e9, 1.2e9), View::carm).region, Region::compute_only);
    // One level left of its crossing makes the point memory-only whatever the others say.
    EXPECT_EQ(analyze(toy(), point(1, 1e9, 1e9, 10e9), View::carm).region, Region::memory_only);
}

TEST(RooflineAnalysis, RegionBoundsAreTheCeilingCrossings) {
    const auto bounds = region_bounds(toy(), "DRAM");
    ASSERT_TRUE(bounds);
    EXPECT_DOUBLE_EQ(bounds->start, 12.5 / 20);  // lowest compute ceiling / DRAM roof
    EXPECT_DOUBLE_EQ(bounds->end, 100.0 / 10);   // compute roof / lowest DRAM ceiling
    EXPECT_FALSE(region_bounds(toy(), "L7"));
}

TEST(RooflineAnalysis, CeilingsAskingTheSameChangeGiveOneStep) {
    Roofline r = toy();
    r.ceilings = {{"256-bit SIMD", CeilingKind::compute, "simd", "", 50, ""},
                  {"scalar (no SIMD)", CeilingKind::compute, "simd", "", 12.5, ""},
                  {"custom A", CeilingKind::compute, "mine", "", 40, ""},
                  {"custom B", CeilingKind::compute, "mine", "", 30, ""}};
    const auto a = analyze(r, point(5, 1e9, 1e9, 1e9), View::carm);  // compute-bound below every ceiling
    std::vector<std::string> lifted;
    for (const auto& s : a.next_steps)
        if (s.kind == NextStep::Kind::lift_ceiling) lifted.push_back(s.ceiling.name);
    // One SIMD step (the lowest ceiling first); unknown categories are told apart by name.
    EXPECT_EQ(lifted, (std::vector<std::string>{"scalar (no SIMD)", "custom B", "custom A"}));
}

TEST(RooflineAnalysis, APointAboveItsRoofIsAnErrorWithLikelyCauses) {
    Roofline r = toy();
    r.threads = 1;
    r.bandwidth.back().spread = 0.05;  // the DRAM roof's best sample was 5% above it
    Point p = point(30, 0, 0, 1e9);    // I = 30 at DRAM... compute-bound: 30 of 100, fine
    EXPECT_FALSE(analyze(r, p, View::orm).above_roof);
    p = point(24, 0, 0, 24e9);  // I = 1: DRAM allows 20, the point claims 24 (+20%)
    p.threads = 2;
    auto a = analyze(r, p, View::orm);
    ASSERT_TRUE(a.above_roof);
    EXPECT_NEAR(a.above_roof->excess, 0.2, 1e-12);
    EXPECT_DOUBLE_EQ(a.above_roof->tolerance, 0.05);
    EXPECT_FALSE(a.above_roof->within_spread);
    ASSERT_FALSE(a.above_roof->causes.empty());
    EXPECT_EQ(a.above_roof->causes.front(), AboveRoof::Cause::more_threads_than_roofline);
    EXPECT_EQ(a.above_roof->causes.back(), AboveRoof::Cause::stale_machine_model);
    EXPECT_TRUE(a.next_steps.empty()) << "no advice from a point that is not a result";
    // Sampled self time is the likely cause for a function point.
    p.threads = 1;
    p.source = PointOrigin::instrument_sampling;
    EXPECT_EQ(analyze(r, p, View::orm).above_roof->causes.front(), AboveRoof::Cause::self_time_only);
    // A reference kernel's sweep just past a cache: that cache still serves part of it.
    p.source = PointOrigin::kernel;
    p.details[kWorkingSetOverCache] = 2;
    EXPECT_EQ(analyze(r, p, View::orm).above_roof->causes.front(), AboveRoof::Cause::working_set_near_cache);
    p.details[kWorkingSetOverCache] = 8;  // well past it: not the cause
    const auto far = analyze(r, p, View::orm);
    for (auto cause : far.above_roof->causes) EXPECT_NE(cause, AboveRoof::Cause::working_set_near_cache);
    for (auto cause : far.above_roof->causes) EXPECT_NE(cause, AboveRoof::Cause::counted_in_other_build);
    // Counted in another build (--counts-from): that build's loads and stores are the first suspect.
    p.details[kCountedFromOtherBuild] = 1;
    EXPECT_EQ(analyze(r, p, View::orm).above_roof->causes.front(), AboveRoof::Cause::counted_in_other_build);
    p.details.erase(kCountedFromOtherBuild);
    // Within the roof's own spread: flagged as such, advice kept.
    p = point(20.6, 0, 0, 20.6e9);  // +3%
    a = analyze(r, p, View::orm);
    ASSERT_TRUE(a.above_roof);
    EXPECT_TRUE(a.above_roof->within_spread);
    // On the roof but for rounding (a prediction of `model -o` read back): not above it, with no spread at all.
    r.bandwidth.back().spread = 0;
    p = point(20, 0, 0, 20e9);
    p.seconds = 1 - 1e-12;
    EXPECT_GT(analyze(r, p, View::orm).efficiency, 1.0);
    EXPECT_FALSE(analyze(r, p, View::orm).above_roof);
    p.seconds = 1 - 1e-6;  // a millionth above: flagged
    EXPECT_TRUE(analyze(r, p, View::orm).above_roof);
}

TEST(RooflineAnalysis, RoofsCarryTheirMeasuredSpread) {
    MachineModel m;
    ComputeRoof c;
    c.precision = "dp";
    c.threads = 1;
    c.mix = "best";
    c.gflops = 100;
    c.stats.max = 104;
    m.compute.push_back(c);
    MemoryRoof d;
    d.level = "DRAM";
    d.pattern = "load";
    d.threads = 1;
    d.gbs = 20;
    d.stats.max = 19;  // a max below the roof (e.g. an old model): no spread
    m.memory.push_back(d);
    const auto r = roofline_from_machine(m, {"dp", 1});
    EXPECT_NEAR(r.compute.spread, 0.04, 1e-12);
    ASSERT_EQ(r.bandwidth.size(), 1u);
    EXPECT_DOUBLE_EQ(r.bandwidth.front().spread, 0);
}

TEST(RooflineAnalysis, WorksForOtherUnitsOfWork) {
    Roofline r = toy();
    r.work_unit = "exchange";
    Point p = point(5, 0, 0, 1e9);
    p.work_unit = "exchange";
    const auto a = analyze(r, p, View::orm);
    EXPECT_DOUBLE_EQ(a.attainable, 100);
    ASSERT_FALSE(a.next_steps.empty());
    EXPECT_EQ(a.next_steps.back().kind, NextStep::Kind::reach_compute);  // I = 5: DRAM allows the peak, 100
    EXPECT_DOUBLE_EQ(a.next_steps.back().cap, 100);
}

namespace {

MemoryRoof memory_roof(const char* level, const char* pattern, int threads, double gbs, double wa = 0) {
    MemoryRoof r;
    r.level = level;
    r.pattern = pattern;
    r.threads = threads;
    r.gbs = gbs;
    r.gbs_write_allocate = wa;
    return r;
}

MachineModel measured() {
    MachineModel m;
    m.cpu.model = "Test CPU";
    auto c = [](const char* prec, int bits, const char* mix, int threads, double g) {
        ComputeRoof r;
        r.precision = prec;
        r.vector_bits = bits;
        r.mix = mix;
        r.threads = threads;
        r.gflops = g;
        return r;
    };
    m.compute = {c("dp", 256, "fma+add", 2, 176), c("dp", 256, "fma", 2, 117), c("dp", 256, "mul+add", 2, 58),
                 c("dp", 256, "add", 2, 58),      c("dp", 64, "fma", 2, 29),   c("dp", 256, "chain", 2, 3.7),
                 c("dp", 256, "fma+add", 1, 88),  c("dp", 256, "best", 2, 176), c("sp", 256, "fma", 2, 234)};
    const auto mem = [](const char* level, const char* pattern, int threads, double g) {
        return memory_roof(level, pattern, threads, g);
    };
    m.memory = {mem("DRAM", "load", 2, 32), mem("L1", "load", 2, 450), mem("L1", "copy", 2, 460),
                mem("L2", "load", 2, 234),  mem("DRAM", "copy", 2, 33), mem("DRAM", "load", 1, 26),
                mem("NUMA0->1", "load", 2, 12)};
    return m;
}

} // namespace

TEST(MachineRoofline, RoofsAndNamedCeilingsFromAMeasuredModel) {
    auto model = measured();
    model.cpu.threads = 4;
    const auto r = roofline_from_machine(model, {"dp", 0});
    EXPECT_EQ(r.threads, 2);
    EXPECT_EQ(r.hardware_threads, 4);  // the machine's PUs, not the roofs' thread count
    EXPECT_EQ(r.label, "Test CPU");
    EXPECT_EQ(r.compute.name, "DP peak");
    EXPECT_DOUBLE_EQ(r.compute.value, 176);
    ASSERT_EQ(r.bandwidth.size(), 3u);
    EXPECT_EQ(r.bandwidth[0].name, "L1 copy");  // fastest pattern of the level
    EXPECT_EQ(r.bandwidth[1].level, "L2");
    EXPECT_EQ(r.bandwidth[2].level, "DRAM");
    std::vector<std::string> names;
    for (const auto& c : r.ceilings) names.push_back(c.name);
    const std::vector<std::string> expected = {"FMA only", "1 thread", "no FMA", "ADD or MUL only",
                                               "scalar (no SIMD)", "no ILP", "L1 load", "DRAM load", "DRAM 1 thread",
                                               "remote NUMA (0->1 load)"};
    EXPECT_EQ(names, expected);
    // Built-in ceilings carry no words: render/ phrases them by their (known) category.
    for (const auto& c : r.ceilings) {
        EXPECT_TRUE(c.advice.empty()) << c.name;
        EXPECT_TRUE(is_known_ceiling_category(c.category)) << c.name;
    }
}

namespace {
Point point_with(int threads, std::map<std::string, double> details) {
    Point p;
    p.name = "p";
    p.work = 1e9;
    p.bytes = {{"DRAM", 1e9}};
    p.seconds = 1;
    p.threads = threads;
    p.details = std::move(details);
    return p;
}
std::string message_of(const MachineModel& m, const std::vector<Point>& points, const RooflineRequest& r) {
    try {
        select_roofline(m, points, r);
    } catch (const std::invalid_argument& e) {
        return e.what();
    }
    return "";
}
} // namespace

// The one policy of plot, report, measure and model.
TEST(SelectRoofline, FollowsThePointsUnlessAsked) {
    const auto m = measured();
    // 1-thread points go under the 1-thread roofline (the model has it for DP)...
    auto s = select_roofline(m, {point_with(1, {{"flops_f64_fma", 1e9}})}, {});
    EXPECT_EQ(s.precision, "dp");
    EXPECT_EQ(s.threads, 1);
    // ...SP-only points under SP, by either engine's keys; SP has only 2 threads here.
    s = select_roofline(m, {point_with(1, {{"flops_f32_add", 5e8}, {"flops_f32_mul", 5e8}})}, {});
    EXPECT_EQ(s.precision, "sp");
    EXPECT_EQ(s.threads, 0);  // the most measured
    EXPECT_EQ(select_roofline(m, {point_with(2, {{"flops_f32", 1e9}})}, {}).precision, "sp");
    // A point with no FLOPs (an int8 dot product, a memcpy) beside an sp one leaves it sp: it
    // made a bf16-as-fp32 dot product's report judge it on DP roofs.
    Point no_flops = point_with(1, {});
    no_flops.work = 0;
    EXPECT_EQ(select_roofline(m, {point_with(2, {{"flops_f32_fma", 1e9}}), no_flops}, {}).precision, "sp");
    Point ops = point_with(1, {});
    ops.work_unit = "exchange";
    EXPECT_EQ(select_roofline(m, {no_flops, ops, point_with(2, {{"flops_f32", 1e9}})}, {}).precision, "sp");
    EXPECT_EQ(select_roofline(m, {no_flops}, {}).precision, "dp");  // nothing says: dp, as before
    // One double operation among hundreds of millions of float ones leaves it an sp point;
    // a real mix is none.
    EXPECT_EQ(point_precision(point_with(1, {{"flops_f32_fma", 3.84e8}, {"flops_f64_mul", 1}})), "sp");
    EXPECT_EQ(point_precision(point_with(1, {{"flops_f32", 90}, {"flops_f64", 10}})), std::nullopt);
    // An sp point beside a dp one: one roofline, dp's, and a note saying what that means.
    const std::vector<Point> both{point_with(2, {{"flops_f32", 1e9}}), point_with(2, {{"flops_f64", 1e9}})};
    const auto on_one = select_roofline(m, both, {});
    EXPECT_EQ(on_one.precision, "dp");
    EXPECT_NE(mixed_precision_note(both, {}, on_one).find("SP points are judged against roofs of another precision"),
              std::string::npos)
        << mixed_precision_note(both, {}, on_one);
    RooflineRequest sp;
    sp.precision = "sp";
    EXPECT_EQ(mixed_precision_note(both, sp, select_roofline(m, both, sp)), "");
    // Hundreds of points of both precisions: ten named, the rest counted (one line of 161 kB before).
    std::vector<Point> many;
    for (int i = 0; i < 300; ++i) {
        many.push_back(point_with(1, {{"flops_f32", 60}, {"flops_f64", 40}}));
        many.back().name = "kernel " + std::to_string(i);
    }
    const auto many_note = mixed_precision_note(many, {}, select_roofline(m, many, {}));
    EXPECT_NE(many_note.find("'kernel 9' (60% sp), 290 more hold both"), std::string::npos) << many_note;
    EXPECT_EQ(many_note.find("kernel 10'"), std::string::npos) << many_note;
    // Mixed precisions, mixed thread counts, or no points: DP at the most threads.
    const std::vector<Point> mixed{point_with(1, {{"flops_f64", 1}, {"flops_f32", 1}}), point_with(2, {})};
    s = select_roofline(m, mixed, {});
    EXPECT_EQ(s.precision, "dp");
    EXPECT_EQ(s.threads, 0);
    // ...and mixed thread counts are said to share the 2-thread roofline, unless a count was asked for.
    EXPECT_NE(mixed_threads_note(m, mixed, {}, s).find("ran with 1, 2 threads and share one roofline, the one for "
                                                       "the most threads measured (2)"),
              std::string::npos);
    EXPECT_NE(mixed_threads_note(m, mixed, {}, s).find("points that ran with fewer threads (1) are judged against roofs "
                                                       "they could not reach"),
              std::string::npos);
    // More threads than the most measured: said as such, not as "fewer" (a 3-thread std::thread
    // program beside a 1-thread region on a 2-core model).
    auto two_cores = m;
    two_cores.cpu.cores = 2;
    const std::vector<Point> three{point_with(3, {{"flops_f64", 1}}), point_with(1, {{"flops_f64", 1}})};
    const auto note3 = mixed_threads_note(two_cores, three, {}, select_roofline(two_cores, three, {}));
    EXPECT_NE(note3.find("points that ran with more threads (3) than the machine's 2 cores share them"),
              std::string::npos)
        << note3;
    EXPECT_NE(note3.find("fewer threads (1)"), std::string::npos) << note3;
    // One point of both precisions (89% sp) judged on the dp roofline: said, with its share.
    const std::vector<Point> poly{point_with(2, {{"flops_f32", 89}, {"flops_f64", 11}})};
    const auto on_dp = select_roofline(m, poly, {});
    EXPECT_EQ(on_dp.precision, "dp");
    const auto note_poly = mixed_precision_note(poly, {}, on_dp);
    EXPECT_NE(note_poly.find("(89% sp) holds both sp and dp work and is judged on the DP roofline"), std::string::npos)
        << note_poly;
    EXPECT_EQ(mixed_precision_note(poly, sp, select_roofline(m, poly, sp)), "");
    // sp points on a model with no sp compute roof: judged on dp's, and said (an audit's float
    // kernels read 28% of the DP peak without a word).
    auto dp_only = m;
    dp_only.compute.erase(std::remove_if(dp_only.compute.begin(), dp_only.compute.end(),
                                         [](const ComputeRoof& c) { return c.precision == "sp"; }),
                          dp_only.compute.end());
    const std::vector<Point> floats{point_with(2, {{"flops_f32", 1e9}})};
    const auto fell_back = select_roofline(dp_only, floats, {});
    EXPECT_EQ(fell_back.precision, "dp");
    const auto missing_note = missing_precision_note(dp_only, floats, {}, fell_back);
    EXPECT_NE(missing_note.find("the points' FLOPs are SP but this model has no SP compute roof, so they are judged "
                                "on the DP roofline"),
              std::string::npos)
        << missing_note;
    EXPECT_EQ(missing_precision_note(m, floats, {}, select_roofline(m, floats, {})), "");  // the model has sp
    // Named (measure judges each point on its own precision): whose FLOPs, said of the one point.
    const auto named_note = missing_precision_note(dp_only, floats, {}, fell_back, {"(program)"});
    EXPECT_NE(named_note.find("the FLOPs of '(program)' are SP but this model has no SP compute roof, so it is "
                              "judged on the DP roofline"),
              std::string::npos)
        << named_note;
    EXPECT_NE(named_note.find("its efficiency (% of attainable) reads high"), std::string::npos) << named_note;
    EXPECT_EQ(missing_precision_note(dp_only, both, {}, select_roofline(dp_only, both, {})), "");  // mixed: the other note
    RooflineRequest one;
    one.threads = 1;
    EXPECT_EQ(mixed_threads_note(m, mixed, one, select_roofline(m, mixed, one)), "");
    EXPECT_EQ(mixed_threads_note(m, {point_with(1, {{"flops_f64", 1}})}, {}, select_roofline(m, {point_with(1, {{"flops_f64", 1}})}, {})), "");
    // One count the model did not measure for the points' precision (SP has only 2 threads
    // here): judged on the 2-thread roofs, which the note says.
    const std::vector<Point> sp_one{point_with(1, {{"flops_f32", 1}})};
    EXPECT_NE(mixed_threads_note(m, sp_one, {}, select_roofline(m, sp_one, {}))
                  .find("ran with 1 thread, a count this model did not measure (SP roofs for 2 threads): they are "
                        "judged against the roofs for 2 threads"),
              std::string::npos)
        << mixed_threads_note(m, sp_one, {}, select_roofline(m, sp_one, {}));
    // Asked for: as asked.
    RooflineRequest asked;
    asked.precision = "dp";
    asked.threads = 2;
    s = select_roofline(m, {point_with(1, {{"flops_f32", 1}})}, asked);
    EXPECT_EQ(s.precision, "dp");
    EXPECT_EQ(s.threads, 2);
}

TEST(SelectRoofline, SaysWhatTheModelHas) {
    const auto m = measured();
    RooflineRequest three;
    three.threads = 3;
    EXPECT_EQ(message_of(m, {}, three), "this model has no DP compute roof for 3 threads; measured thread counts: 1, 2");
    MachineModel memory_only = m;
    memory_only.compute.clear();
    EXPECT_EQ(message_of(memory_only, {}, {}),
              "this model has only memory roofs (no compute roof to draw a roofline under); measured thread counts: "
              "1, 2");
    RooflineRequest sp_one;
    sp_one.precision = "sp";
    sp_one.threads = 1;
    EXPECT_NE(message_of(m, {}, sp_one).find("measured thread counts: 2"), std::string::npos);
}

// Below L1 a point's bytes are traffic (lines moved, write-allocate reads
// included), so the roofs there are too: a copy moving 14.7 GB/s of nominal
// bytes moves 22.0 with its write-allocate reads and beats a load at 17.6 (an
// AMX Xeon core); in L1 the instructions' bytes count, write-allocate or not.
TEST(MachineRoofline, RoofsBelowL1CountWriteAllocateTraffic) {
    MachineModel m;
    m.compute.push_back(ComputeRoof{});
    m.compute.back().precision = "dp";
    m.compute.back().gflops = 100;
    const auto roof = [](const char* level, const char* pattern, double gbs, double wa) {
        return memory_roof(level, pattern, 1, gbs, wa);
    };
    m.memory = {roof("L1", "load", 525, 525), roof("L1", "copy", 536, 804), roof("DRAM", "load", 17.6, 17.6),
                roof("DRAM", "copy", 14.7, 22.0), roof("DRAM", "triad", 16.5, 0)};  // 0: an older model without it
    const auto r = roofline_from_machine(m, {"dp", 1});
    ASSERT_EQ(r.bandwidth.size(), 2u);
    EXPECT_EQ(r.bandwidth[0].name, "L1 copy");
    EXPECT_DOUBLE_EQ(r.bandwidth[0].value, 536);
    EXPECT_EQ(r.bandwidth[1].name, "DRAM copy+WA");
    EXPECT_DOUBLE_EQ(r.bandwidth[1].value, 22.0);
    std::map<std::string, double> ceilings;
    for (const auto& c : r.ceilings) ceilings[c.name] = c.value;
    EXPECT_DOUBLE_EQ(ceilings.at("DRAM load"), 17.6);
    EXPECT_DOUBLE_EQ(ceilings.at("DRAM triad"), 16.5);
    EXPECT_DOUBLE_EQ(ceilings.at("L1 load"), 525);
    EXPECT_DOUBLE_EQ(bandwidth_roofline(m).bandwidth[1].value, 22.0);
}

// A working set the user chose without a level (older models' "custom"), even a faster or
// more-threaded one, is no level's roof and no ceiling: nothing is judged against it.
TEST(MachineRoofline, CustomWorkingSetsAreNoLevelsRoof) {
    auto m = measured();
    auto custom = memory_roof("custom", "load", 2, 900);
    custom.working_set_bytes = 1ull << 30;
    m.memory.push_back(custom);
    m.memory.push_back(memory_roof("custom", "load", 8, 950));
    const auto r = roofline_from_machine(m, {"dp", 0});
    ASSERT_EQ(r.bandwidth.size(), 3u);
    for (const auto& b : r.bandwidth) EXPECT_NE(b.level, "custom") << b.name;
    for (const auto& c : r.ceilings) EXPECT_NE(c.level, "custom") << c.name;
    EXPECT_DOUBLE_EQ(r.bandwidth[0].value, 460);  // L1 copy, as without the custom roofs
    const auto memory_only = bandwidth_roofline(m);
    EXPECT_EQ(memory_only.threads, 2);  // not the custom roof's 8
    for (const auto& b : memory_only.bandwidth) EXPECT_NE(b.level, "custom") << b.name;
    EXPECT_EQ(memory_only.bandwidth.size(), 3u);
}

TEST(MachineRoofline, SelectionAndMissingRoofs) {
    const auto one = roofline_from_machine(measured(), {"dp", 1});
    EXPECT_DOUBLE_EQ(one.compute.value, 88);
    EXPECT_THROW(roofline_from_machine(measured(), {"sp", 1}), std::invalid_argument);
    EXPECT_DOUBLE_EQ(roofline_from_machine(measured(), {"sp", 0}).compute.value, 234);
}

// Bytes at a level the machine has no roof for bound nothing: the analysis says
// so instead of showing a compute-bound point at "0 FLOP/B".
TEST(RooflineAnalysis, BytesAtLevelsWithoutARoofAreReportedAsUnjudged) {
    Point only_l4 = point(10, 0, 0, 0);
    only_l4.bytes["L4"] = 1e9;
    auto a = analyze(toy(), only_l4, View::carm);
    EXPECT_EQ(a.unjudged_levels, std::vector<std::string>{"L4"});
    EXPECT_TRUE(a.intensity_level.empty());
    EXPECT_TRUE(std::isnan(a.intensity));
    EXPECT_FALSE(a.memory_bound);

    Point mixed = point(10, 4e9, 0, 1e9);
    mixed.bytes["L4"] = 2e9;
    a = analyze(toy(), mixed, View::carm);
    EXPECT_EQ(a.unjudged_levels, std::vector<std::string>{"L4"});
    EXPECT_EQ(a.intensity_level, "DRAM");
    // ORM judges DRAM only by design: nothing is unjudged there.
    EXPECT_TRUE(analyze(toy(), mixed, View::orm).unjudged_levels.empty());
}

TEST(RooflineAnalysis, WorkShippedOverABusHasItsThroughputIntensityAndCoefficient) {
    Point p = point(400, 0, 0, 1e10);  // 400 GFLOP at 40 FLOP per DRAM byte
    EXPECT_FALSE(bus_throughput(p)) << "no bytes over a bus";
    p.bytes["PCIe"] = 4e10;            // 10 FLOP per bus byte
    const auto t = bus_throughput(p);
    ASSERT_TRUE(t);
    EXPECT_EQ(t->bus, "PCIe");
    EXPECT_DOUBLE_EQ(t->intensity, 10);
    EXPECT_EQ(t->memory_level, "DRAM");
    EXPECT_DOUBLE_EQ(t->memory_intensity, 40);
    EXPECT_DOUBLE_EQ(t->coefficient, 0.25);
    EXPECT_TRUE(analyze(toy(), p, View::carm).throughput);
    p.bytes.erase("DRAM");
    EXPECT_TRUE(bus_throughput(p)->memory_level.empty()) << "nothing to compare with";
    p.work = 0;
    EXPECT_FALSE(bus_throughput(p)) << "no work, no intensity";
    EXPECT_TRUE(is_bus_level("PCIe") && is_bus_level("NVLink") && is_bus_level("network"));
    EXPECT_FALSE(is_bus_level("DRAM") || is_bus_level("NUMA0->1"));
}

TEST(RooflineAnalysis, PatternCeilingsSpeakToPointsOfTheirKind) {
    // DRAM roof copy 20 GB/s; ceilings: triad 16, loads alone 14. A point at I = 1 running 12 GF/s
    // sits under both.
    Roofline r = toy();
    r.bandwidth.back() = {"DRAM copy", "DRAM", 20};
    r.ceilings = {{"DRAM triad", CeilingKind::bandwidth, "pattern", "DRAM", 16, ""},
                  {"DRAM load", CeilingKind::bandwidth, "pattern", "DRAM", 14, "", true}};
    auto lifted = [&](const Point& p) {
        std::vector<std::string> names;
        for (const auto& s : analyze(r, p, View::carm).next_steps)
            if (s.kind == NextStep::Kind::lift_ceiling) names.push_back(s.ceiling.name);
        return names;
    };
    Point reads = point(12, 24e9, 24e9, 12e9);
    reads.details = {{"bytes_loaded", 24e9}, {"bytes_stored", 64}};  // a reduction: its total only
    EXPECT_EQ(lifted(reads), std::vector<std::string>{"DRAM load"});  // copy and triad are not open to it
    Point writes = reads;
    writes.details["bytes_stored"] = 8e9;
    EXPECT_EQ(lifted(writes), std::vector<std::string>{"DRAM triad"});  // loads alone are not its pattern
    Point uncounted = point(12, 24e9, 24e9, 12e9);  // nothing says whether it stores: both, lowest first
    EXPECT_EQ(lifted(uncounted), (std::vector<std::string>{"DRAM load", "DRAM triad"}));
}

// A point whose run was allowed fewer CPUs than it ran threads (details cpus_allowed: taskset -c 0,
// a cgroup quota) is judged by the CPUs: the roofline select_roofline picks, the above-roof causes,
// and a note in report's text, Markdown and JSON. Its own count where nothing recorded the CPUs or
// they allowed as many.

namespace judged_threads_cases {

// DP roofs of 1 and 2 threads (2 threads twice as fast), a DRAM roof of each.
MachineModel two_counts() {
    MachineModel m;
    m.cpu.model = "Test CPU";
    m.cpu.cores = 2;
    m.cpu.threads = 2;
    const auto compute = [](int threads, double gflops) {
        ComputeRoof c;
        c.precision = "dp";
        c.vector_bits = 256;
        c.mix = "fma";
        c.threads = threads;
        c.gflops = gflops;
        return c;
    };
    const auto memory = [](int threads, double gbs) {
        MemoryRoof r;
        r.level = "DRAM";
        r.pattern = "load";
        r.threads = threads;
        r.gbs = gbs;
        return r;
    };
    m.compute = {compute(1, 50), compute(2, 100)};
    m.memory = {memory(1, 20), memory(2, 30)};
    return m;
}

// Compute-bound (10 FLOP/B at DRAM) at 40 GFLOP/s: 80% of one thread's 50, 40% of two threads' 100.
Point threads_point(int threads, std::optional<double> cpus_allowed) {
    Point p;
    p.name = "(program)";
    p.work = 40e9;
    p.bytes = {{"DRAM", 4e9}};
    p.seconds = 1;
    p.threads = threads;
    p.details = {{"flops_f64", 40e9}};
    if (cpus_allowed) p.details[kCpusAllowed] = *cpus_allowed;
    return p;
}

Analysis judged(const MachineModel& m, const Point& p) {
    return analyze(roofline_from_machine(m, select_roofline(m, {p}, {})), p, View::carm);
}

} // namespace judged_threads_cases

TEST(JudgedThreads, EightThreadsOnOneAllowedCpuAreJudgedOnTheOneThreadRoofs) {
    using namespace judged_threads_cases;
    const auto m = two_counts();
    const Point p = threads_point(8, 1);
    EXPECT_EQ(judged_threads(p), 1);
    const auto selection = select_roofline(m, {p}, {});
    EXPECT_EQ(selection.threads, 1);
    const auto r = roofline_from_machine(m, selection);
    const auto a = analyze(r, p, View::carm);
    EXPECT_DOUBLE_EQ(a.attainable, 50);  // the 1-thread roof, not the 2-thread one's 100
    EXPECT_DOUBLE_EQ(a.efficiency, 0.8);
    ASSERT_TRUE(a.judged_threads);
    EXPECT_EQ(a.judged_threads->threads, 1);
    EXPECT_EQ(a.judged_threads->point_threads, 8);
    EXPECT_EQ(a.judged_threads->roofline_threads, 1);
    const auto note = judged_threads_text(*a.judged_threads);
    EXPECT_NE(note.find("it ran 8 threads on 1 CPU allowed"), std::string::npos) << note;
    EXPECT_NE(note.find("judged as 1 thread at once, on the roofs of 1 thread"), std::string::npos) << note;
    // Said in report: a line of its own in text, a field in JSON.
    const auto text = render_report({a}, r, ReportFormat::text);
    EXPECT_NE(text.find("  threads          it ran 8 threads on 1 CPU allowed"), std::string::npos) << text;
    const auto markdown = render_report({a}, r, ReportFormat::markdown);
    EXPECT_NE(markdown.find("  - threads: it ran 8 threads on 1 CPU allowed"), std::string::npos) << markdown;
    const auto json = nlohmann::json::parse(render_report({a}, r, ReportFormat::json));
    EXPECT_EQ(json["roofline"]["threads"], 1);
    const auto& field = json["points"][0]["judged_threads"];
    ASSERT_TRUE(field.is_object()) << field.dump();
    EXPECT_EQ(field["threads"], 1);
    EXPECT_EQ(field["point_threads"], 8);
    EXPECT_EQ(field["cpus_allowed"], 1);
    EXPECT_EQ(field["roofline_threads"], 1);
    EXPECT_EQ(field["why"], note);
}

TEST(JudgedThreads, AsManyCpusAsThreadsOrNoneRecordedChangeNothing) {
    using namespace judged_threads_cases;
    const auto m = two_counts();
    // threads 2, 4 CPUs allowed: the 2-thread roofs, as without the detail, and nothing said.
    const Point allowed_more = threads_point(2, 4), unknown = threads_point(2, std::nullopt), equal = threads_point(2, 2);
    for (const auto& p : {allowed_more, unknown, equal}) {
        EXPECT_EQ(judged_threads(p), 2);
        EXPECT_EQ(select_roofline(m, {p}, {}).threads, 2);
        const auto a = judged(m, p);
        EXPECT_FALSE(a.judged_threads);
        EXPECT_DOUBLE_EQ(a.attainable, 100);
        const auto r = roofline_from_machine(m, select_roofline(m, {p}, {}));
        EXPECT_EQ(render_report({a}, r, ReportFormat::text).find("  threads "), std::string::npos);
        EXPECT_TRUE(nlohmann::json::parse(render_report({a}, r, ReportFormat::json))["points"][0]["judged_threads"].is_null());
    }
    // An unreadable detail (under 1 CPU, not finite) is no figure: the point's own count.
    EXPECT_EQ(judged_threads(threads_point(8, 0)), 8);
    EXPECT_EQ(judged_threads(threads_point(8, std::numeric_limits<double>::quiet_NaN())), 8);
}

TEST(JudgedThreads, SetsAgreeOnTheCountTheirCpusAllowed) {
    using namespace judged_threads_cases;
    const auto m = two_counts();
    // 8 threads on 1 CPU beside a 1-thread point: one count, 1, and no note of mixed counts.
    const std::vector<Point> ones{threads_point(8, 1), threads_point(1, std::nullopt)};
    const auto s = select_roofline(m, ones, {});
    EXPECT_EQ(s.threads, 1);
    EXPECT_EQ(mixed_threads_note(m, ones, {}, s), "");
    // Beside a 2-thread point: the most measured, and the note names the count it is judged by.
    const std::vector<Point> mixed{threads_point(8, 1), threads_point(2, std::nullopt)};
    const auto most = select_roofline(m, mixed, {});
    EXPECT_EQ(most.threads, 0);
    const auto note = mixed_threads_note(m, mixed, {}, most);
    EXPECT_NE(note.find("points that ran with fewer threads (1) are judged against roofs they could not reach"),
              std::string::npos)
        << note;
    const auto r = roofline_from_machine(m, most);
    const auto a = analyze(r, mixed.front(), View::carm);
    ASSERT_TRUE(a.judged_threads);
    EXPECT_EQ(a.judged_threads->roofline_threads, 2);
    EXPECT_NE(judged_threads_text(*a.judged_threads).find("yet this roofline is of 2 threads"), std::string::npos)
        << judged_threads_text(*a.judged_threads);
}

TEST(JudgedThreads, ThreadsThatTookTurnsAreNoCauseOfAPointAboveItsRoof) {
    using namespace judged_threads_cases;
    const auto m = two_counts();
    const auto one = roofline_from_machine(m, {"dp", 1});
    const auto has_cause = [](const Analysis& a) {
        return a.above_roof && std::find(a.above_roof->causes.begin(), a.above_roof->causes.end(),
                                         AboveRoof::Cause::more_threads_than_roofline) != a.above_roof->causes.end();
    };
    Point fast = threads_point(8, std::nullopt);
    fast.seconds = 0.5;  // 80 GFLOP/s against 50
    EXPECT_TRUE(has_cause(analyze(one, fast, View::carm)));
    fast.details[kCpusAllowed] = 1;  // they ran one at a time: not the cause
    const auto a = analyze(one, fast, View::carm);
    ASSERT_TRUE(a.above_roof);
    EXPECT_FALSE(has_cause(a));
}
