// core/code_traits and the advice that reads it (issue 35): a scalar dot product limited by
// its dependent add chain in L1 is told to vectorize and split its accumulator, not to fuse
// read-only passes or block loops; vectorized or fused code is not told what it already does;
// a blocked multiply in L1 is not told to use non-temporal stores.
#include "advice_fixture.hpp"
#include "core/code_traits.hpp"
#include "core/machine_roofline.hpp"
#include "core/microarch.hpp"
#include "core/peak.hpp"
#include "render/advice_text.hpp"
#include "render/report.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

using namespace roofline;

namespace {

// A Zen-4-like roofline: 1 thread, 3.7 GHz, DP peak 59 GFLOP/s, L1 triad 310 GB/s, DRAM 30.
Roofline machine() {
    Roofline r;
    r.label = "test";
    r.precision = "dp";
    r.threads = 1;
    r.clock_ghz = 3.7;
    r.compute = {"DP peak", "", 59};
    r.bandwidth = {{"L1 triad", "L1", 310}, {"DRAM copy", "DRAM", 30}};
    r.ceilings = {{"scalar (no SIMD)", CeilingKind::compute, "simd", "", 7.4, "", false},
                  {"no FMA", CeilingKind::compute, "fma", "", 29.5, "", false},
                  {"L1 load", CeilingKind::bandwidth, "pattern", "L1", 200, "", true},
                  {"L1 copy", CeilingKind::bandwidth, "pattern", "L1", 250, "", false}};
    return r;
}

// n-element dot product in L1, scalar, one accumulator: 2n FLOPs (n adds, n muls or n FMAs),
// 16n bytes loaded, nothing stored, at 2.2 GFLOP/s (one add per 3 cycles, as on Zen 4: 2.47;
// per 2 cycles: 3.7).
Point scalar_dot() {
    Point p;
    p.name = "dot";
    p.work = 2e8;
    p.bytes = {{"L1", 1.6e9}};
    p.seconds = p.work / 2.2e9;
    p.details = {{"flops_by_width_scalar", 2e8}, {"flops_by_width_128", 0}, {"flops_by_width_256", 0},
                 {"flops_f64_add", 1e8},         {"flops_f64_mul", 1e8},   {"flops_f64_fma", 0},
                 {"bytes_loaded", 1.6e9},        {"bytes_stored", 0}};
    return p;
}

using advice_fixture::all_advice;
using advice_fixture::has;

} // namespace

TEST(CodeTraits, SharesFromTheCounts) {
    const auto t = code_traits(scalar_dot());
    ASSERT_TRUE(t.scalar_share);
    EXPECT_DOUBLE_EQ(*t.scalar_share, 1.0);
    EXPECT_EQ(t.widest_bits, 0);
    ASSERT_TRUE(t.fma_share);
    EXPECT_DOUBLE_EQ(*t.fma_share, 0.0);
    ASSERT_TRUE(t.store_share);
    EXPECT_DOUBLE_EQ(*t.store_share, 0.0);
    Point p = scalar_dot();
    p.details = {{"flops_by_width_scalar", 1e7}, {"flops_by_width_256", 3e7}, {"flops_f64_fma", 2e8}};
    const auto v = code_traits(p);
    EXPECT_DOUBLE_EQ(*v.scalar_share, 0.25);
    EXPECT_EQ(v.widest_bits, 256);
    EXPECT_DOUBLE_EQ(*v.fma_share, 1.0);
    EXPECT_FALSE(v.store_share);  // no byte counts: nothing claimed
    // An analytic point has no counts: nothing is claimed either.
    Point analytic;
    analytic.work = 1;
    const auto none = code_traits(analytic);
    EXPECT_FALSE(none.scalar_share);
    EXPECT_FALSE(none.fma_share);
}

TEST(CodeTraits, OneChainRateIsOneAccumulationPerLatency) {
    EXPECT_DOUBLE_EQ(one_chain_gflops(4.0, 1, 1.0), 2.0);  // a sum: one FLOP per add
    EXPECT_DOUBLE_EQ(one_chain_gflops(4.0, 2, 1.0), 4.0);
    EXPECT_DOUBLE_EQ(one_chain_gflops(4.0, 1, 2.0), 4.0);  // a dot: a multiply rides on each add
    EXPECT_DOUBLE_EQ(one_chain_gflops(0.0, 1, 2.0), 0.0);  // no clock: no claim
    EXPECT_DOUBLE_EQ(*code_traits(scalar_dot()).flops_per_accumulation, 2.0);  // n muls + n adds over n adds
    Point fma = scalar_dot();
    fma.details["flops_f64_add"] = 0;
    fma.details["flops_f64_mul"] = 0;
    fma.details["flops_f64_fma"] = 2e8;  // n FMAs: 2n FLOPs, n accumulations
    EXPECT_DOUBLE_EQ(*code_traits(fma).flops_per_accumulation, 2.0);
}

TEST(CodeTraits, AScalarChainedDotIsToldToSplitItsAccumulatorThenVectorize) {
    // The chain is what holds it (it runs at one add per latency): splitting it comes first, since
    // a compiler keeps a reduction scalar until it may reassociate it (an audit's float sum: the
    // same time at -O3 -march=native as at -O2, ten times faster with -ffast-math).
    const auto r = machine();
    const auto a = analyze(r, scalar_dot(), View::carm);
    ASSERT_GE(a.next_steps.size(), 2u);
    EXPECT_EQ(a.next_steps[0].kind, NextStep::Kind::split_chain);
    EXPECT_EQ(a.next_steps[1].kind, NextStep::Kind::vectorize);
    // Not the advice of a bandwidth-limited loop: it runs at 0.6% of its L1 roof.
    EXPECT_FALSE(has(a, NextStep::Kind::raise_intensity));
    EXPECT_FALSE(has(a, NextStep::Kind::reach_compute));  // it is not compute-bound either
    const auto text = all_advice(r, a);
    EXPECT_NE(text.find("100.0% of its FLOPs ran in scalar instructions"), std::string::npos) << text;
    EXPECT_NE(text.find("split the accumulator"), std::string::npos) << text;
    EXPECT_EQ(text.find("fuse read-only passes"), std::string::npos) << text;
    EXPECT_EQ(text.find("block loops"), std::string::npos) << text;
}

TEST(CodeTraits, ALoopThatStoresOrRunsAboveOneChainIsNotCalledAChain) {
    const auto r = machine();
    Point stores = scalar_dot();
    stores.details["bytes_stored"] = 0.8e9;  // a third of its bytes are stores: not a reduction
    EXPECT_FALSE(has(analyze(r, stores, View::carm), NextStep::Kind::split_chain));
    Point fast = scalar_dot();
    fast.seconds = fast.work / 5e9;  // 5 GFLOP/s: above one chain at 3.7 GHz (3.7 at best)
    EXPECT_FALSE(has(analyze(r, fast, View::carm), NextStep::Kind::split_chain));
    // Far under one chain (0.8 GFLOP/s of 3.7: slower than the slowest add latency allows) its
    // adds wait for something else, loads that miss or a gather: splitting the chain is not it.
    Point waits = scalar_dot();
    waits.seconds = waits.work / 0.8e9;
    EXPECT_FALSE(has(analyze(r, waits, View::carm), NextStep::Kind::split_chain));
    waits.seconds = waits.work / 1.4e9;  // a 5-cycle add's chain: still one chain
    EXPECT_TRUE(has(analyze(r, waits, View::carm), NextStep::Kind::split_chain));
    Roofline no_clock = r;
    no_clock.clock_ghz = 0;  // a spec sheet: no clock, no claim about chains
    EXPECT_FALSE(has(analyze(no_clock, scalar_dot(), View::carm), NextStep::Kind::split_chain));
    EXPECT_TRUE(has(analyze(no_clock, scalar_dot(), View::carm), NextStep::Kind::vectorize));
}

TEST(CodeTraits, ScalarCodeBoundByMemoryKeepsTheMemoryAdvice) {
    const auto r = machine();
    // A scalar triad streaming from DRAM at 25% of its roof: vectorizing is worth a try, and
    // the DRAM roof still says what caps it.
    Point triad;
    triad.name = "triad";
    triad.work = 8e7;
    triad.bytes = {{"L1", 9.6e8}, {"DRAM", 1.28e9}};
    triad.seconds = triad.work / (0.25 * 30 * (8e7 / 1.28e9) * 1e9);
    triad.details = {{"flops_by_width_scalar", 8e7}, {"bytes_loaded", 6.4e8}, {"bytes_stored", 3.2e8}};
    const auto a = analyze(r, triad, View::carm);
    EXPECT_TRUE(a.memory_bound);
    EXPECT_TRUE(has(a, NextStep::Kind::vectorize));
    EXPECT_TRUE(has(a, NextStep::Kind::raise_intensity));
}

TEST(CodeTraits, VectorizedFusedCodeIsNotToldWhatItAlreadyDoes) {
    const auto r = machine();
    // A blocked multiply in L1 at 5 GFLOP/s, under the scalar, no-FMA and L1 copy ceilings
    // (0.1 FLOP/B: L1 copy allows 25): all 256-bit FMAs, stores 5% of its bytes.
    Point gemm;
    gemm.name = "dgemm blocked";
    gemm.work = 2e9;
    gemm.bytes = {{"L1", 2e10}};
    gemm.seconds = 0.4;
    gemm.details = {{"flops_by_width_scalar", 0}, {"flops_by_width_256", 2e9}, {"flops_f64_fma", 2e9},
                    {"bytes_loaded", 1.9e10},     {"bytes_stored", 1e9}};
    const auto a = analyze(r, gemm, View::carm);
    ASSERT_TRUE(a.upper);  // ceilings above it exist; the counts rule some of them out
    EXPECT_TRUE(std::any_of(a.next_steps.begin(), a.next_steps.end(), [](const NextStep& s) {
        return s.kind == NextStep::Kind::lift_ceiling && s.ceiling.category == "pattern";
    }));
    EXPECT_FALSE(has(a, NextStep::Kind::vectorize));
    EXPECT_FALSE(has(a, NextStep::Kind::split_chain));
    const auto text = all_advice(r, a);
    EXPECT_EQ(text.find("vectorize"), std::string::npos) << text;  // past the scalar ceiling already
    EXPECT_EQ(text.find("into FMA"), std::string::npos) << text;    // its FLOPs are all fused
    EXPECT_EQ(text.find("non-temporal"), std::string::npos) << text;  // its data lives in L1
}

TEST(CodeTraits, NonTemporalStoresAreAdvisedForMemoryOnly) {
    const auto r = machine();
    EXPECT_EQ(ceiling_advice(r, {"L1 copy", CeilingKind::bandwidth, "pattern", "L1", 250, "", false}).find("non-temporal"),
              std::string::npos);
    EXPECT_NE(ceiling_advice(r, {"DRAM load", CeilingKind::bandwidth, "pattern", "DRAM", 20, "", false}).find("non-temporal"),
              std::string::npos);
}

namespace {

// A scalar sum of n doubles in L1 at `gflops`: n adds, 8n bytes loaded, nothing stored.
Point scalar_sum(double gflops) {
    Point p;
    p.name = "sum";
    p.work = 1e8;
    p.bytes = {{"L1", 8e8}};
    p.seconds = p.work / (gflops * 1e9);
    p.details = {{"flops_by_width_scalar", 1e8}, {"flops_f64_add", 1e8}, {"bytes_loaded", 8e8}, {"bytes_stored", 0}};
    return p;
}

// The machine() roofline with the ILP ceiling a full bench measures: one chain of the widest
// (512-bit) vectors, 14.8 GFLOP/s at 3.7 GHz; and the L1 roof's pattern known (a triad).
Roofline machine_with_chain_ceiling() {
    Roofline r = machine();
    r.bandwidth[0].store_share = 1.0 / 3;
    r.ceilings.insert(r.ceilings.begin(), {"no ILP", CeilingKind::compute, "ilp", "", 14.8, "", false});
    return r;
}

} // namespace

TEST(CodeTraits, OneStepPerRemedyWhenTheCountsAndACeilingAgree) {
    // A one-accumulator sum at one add per 3 cycles: split the chain and vectorize, each once
    // (the SIMD and ILP ceilings above it ask for the same two changes).
    const auto r = machine_with_chain_ceiling();
    const auto a = analyze(r, scalar_sum(1.2), View::carm);
    ASSERT_GE(a.next_steps.size(), 2u);
    EXPECT_EQ(a.next_steps[0].kind, NextStep::Kind::split_chain);
    EXPECT_EQ(a.next_steps[1].kind, NextStep::Kind::vectorize);
    for (const auto& s : a.next_steps)
        EXPECT_FALSE(s.kind == NextStep::Kind::lift_ceiling &&
                     (s.ceiling.category == "simd" || s.ceiling.category == "ilp"))
            << next_step_text(r, s);
}

TEST(CodeTraits, FarUnderOneChainNoCeilingTellsItToBreakTheChain) {
    // A sum at 0.3 GFLOP/s, 0.16 of one chain's rate (1.85): split_chain is withheld (its adds wait
    // for something else), and the ILP ceiling above it must not say the same ("break the
    // dependency chain"); at 1.2 split_chain says it, once.
    const auto r = machine_with_chain_ceiling();
    const auto slow = analyze(r, scalar_sum(0.3), View::carm);
    EXPECT_FALSE(has(slow, NextStep::Kind::split_chain));
    EXPECT_EQ(all_advice(r, slow).find("dependency chain"), std::string::npos) << all_advice(r, slow);
    EXPECT_FALSE(slow.upper && slow.upper->category == "ilp");
    EXPECT_TRUE(has(analyze(r, scalar_sum(1.2), View::carm), NextStep::Kind::split_chain));
}

TEST(CodeTraits, EightScalarAccumulatorsAreNotToldToBreakTheChain) {
    // 7.4 GFLOP/s of scalar adds: two adds a cycle, four times one scalar chain's rate (1.85 at
    // 3.7 GHz), yet under the 512-bit chain ceiling (14.8): that ceiling is not its limit.
    const auto r = machine_with_chain_ceiling();
    const auto a = analyze(r, scalar_sum(7.4), View::carm);
    ASSERT_FALSE(a.next_steps.empty());
    EXPECT_EQ(a.next_steps[0].kind, NextStep::Kind::vectorize);
    EXPECT_FALSE(has(a, NextStep::Kind::split_chain));
    EXPECT_EQ(all_advice(r, a).find("dependency chain"), std::string::npos) << all_advice(r, a);
    // The same vectorized (256-bit, 4 lanes: one chain allows 7.4) at 6 GFLOP/s is under one chain:
    // told once, by split_chain in the ILP ceiling's place.
    Point vector = scalar_sum(6);
    vector.details["flops_by_width_scalar"] = 0;
    vector.details["flops_by_width_256"] = 1e8;
    const auto held = analyze(r, vector, View::carm);
    EXPECT_NE(all_advice(r, held).find("one dependent chain of 256-bit vectors' rate"), std::string::npos)
        << all_advice(r, held);
    for (const auto& s : held.next_steps)
        EXPECT_FALSE(s.kind == NextStep::Kind::lift_ceiling && s.ceiling.category == "ilp") << next_step_text(r, s);
}

TEST(CodeTraits, AScalarReductionIsToldThatVectorizingItNeedsLeaveToReorderIt) {
    // Built -O3 -march=native and still scalar (an audit's std::transform_reduce on floats): the
    // compiler lacks leave to reassociate, which the vectorize step must say, once.
    const auto r = machine_with_chain_ceiling();
    const auto a = analyze(r, scalar_sum(7.4), View::carm);  // above one chain: no split_chain
    ASSERT_FALSE(a.next_steps.empty());
    ASSERT_EQ(a.next_steps[0].kind, NextStep::Kind::vectorize);
    EXPECT_TRUE(a.next_steps[0].reduction);
    EXPECT_NE(next_step_text(r, a.next_steps[0]).find("#pragma omp simd reduction(+:sum)"), std::string::npos)
        << next_step_text(r, a.next_steps[0]);
    EXPECT_NE(render_report({a}, r, ReportFormat::json).find("\"reduction\": true"), std::string::npos);
    // At one chain's rate split_chain leads and says it; vectorize does not repeat it.
    const auto chained = analyze(r, scalar_sum(1.2), View::carm);
    ASSERT_GE(chained.next_steps.size(), 2u);
    EXPECT_EQ(chained.next_steps[0].kind, NextStep::Kind::split_chain);
    EXPECT_FALSE(chained.next_steps[1].reduction);
    // A scalar loop that stores what it computes (a third of its bytes) is no reduction.
    Point stores = scalar_sum(7.4);
    stores.details["bytes_stored"] = 4e8;
    const auto s = analyze(r, stores, View::carm);
    ASSERT_TRUE(has(s, NextStep::Kind::vectorize)) << all_advice(r, s);
    for (const auto& step : s.next_steps) EXPECT_FALSE(step.reduction) << next_step_text(r, step);
    EXPECT_EQ(all_advice(r, s).find("reorder the sum"), std::string::npos) << all_advice(r, s);
}

TEST(CodeTraits, ALoopOfShortReductionsIsNotOneChain) {
    // A CSR SpMV's inner loop (measure --loops): a dot of ~5 nonzeros per entry, nothing stored
    // in it, under one chain's rate. Each entry starts a new accumulator, and the core runs the next
    // rows' chains beside it: an audit's two accumulators made it no faster. Neither split_chain
    // nor the ILP ceiling is its advice.
    const auto r = machine_with_chain_ceiling();
    Point row = scalar_dot();
    row.name = "spmv: main: spmv.c:26";
    row.details["loop_entries"] = 2e7;  // 1e8 accumulations: 5 an entry
    const auto a = analyze(r, row, View::carm);
    EXPECT_DOUBLE_EQ(*code_traits(row).accumulations_per_entry, 5.0);
    EXPECT_FALSE(has(a, NextStep::Kind::split_chain)) << all_advice(r, a);
    for (const auto& s : a.next_steps)
        EXPECT_FALSE(s.kind == NextStep::Kind::lift_ceiling && s.ceiling.category == "ilp") << next_step_text(r, s);
    EXPECT_FALSE(a.upper && a.upper->category == "ilp") << a.upper->name;
    // The same loop entered once per 2048 accumulations (a whole array summed each entry) is one chain.
    row.details["loop_entries"] = 1e8 / 2048;
    EXPECT_TRUE(has(analyze(r, row, View::carm), NextStep::Kind::split_chain));
    // Not a loop (no entries counted): the chain is judged by rate alone, as before.
    EXPECT_TRUE(has(analyze(r, scalar_dot(), View::carm), NextStep::Kind::split_chain));
}

TEST(CodeTraits, AVectorSumOfOneAccumulatorIsToldToSplitItIntoVectorPartialSums) {
    // A 256-bit sum of doubles (-O3 -ffast-math: GCC keeps one vector accumulator) at 6 GFLOP/s,
    // under one chain of 4 lanes (7.4 at 3.7 GHz) and at 15% of its L1 roof (38.75): held by its
    // chain, not by L1 (an audit's float sum ran 3.8x faster with four accumulators). It was told
    // to raise its intensity at L1, split_chain being for scalar code only.
    const auto r = machine();
    Point vector = scalar_sum(6);
    vector.details["flops_by_width_scalar"] = 0;
    vector.details["flops_by_width_256"] = 1e8;
    const auto a = analyze(r, vector, View::carm);
    ASSERT_FALSE(a.next_steps.empty()) << all_advice(r, a);
    EXPECT_EQ(a.next_steps[0].kind, NextStep::Kind::split_chain) << all_advice(r, a);
    EXPECT_EQ(a.next_steps[0].operation, "256");
    EXPECT_FALSE(has(a, NextStep::Kind::raise_intensity)) << all_advice(r, a);
    EXPECT_FALSE(has(a, NextStep::Kind::vectorize));
    const auto text = all_advice(r, a);
    EXPECT_NE(text.find("one dependent chain of 256-bit vectors' rate (7.40 GFLOP/s"), std::string::npos) << text;
    EXPECT_NE(text.find("vector partial sums"), std::string::npos) << text;
    EXPECT_EQ(text.find("-ffast-math"), std::string::npos) << text;  // it is vectorized: reassociated already
    const auto json = render_report({a}, r, ReportFormat::json);
    EXPECT_NE(json.find("\"vector_bits\": 256"), std::string::npos) << json;
    // Half scalar, half vector: no one width, no claim about its chain.
    Point mixed = vector;
    mixed.details["flops_by_width_scalar"] = 5e7;
    mixed.details["flops_by_width_256"] = 5e7;
    EXPECT_FALSE(has(analyze(r, mixed, View::carm), NextStep::Kind::split_chain));
}

TEST(CodeTraits, AVectorLoopsChainIsCountedInInstructionsNotLanes) {
    // Accumulations are counted per lane: a 256-bit loop of 10 vector adds an entry (40 lane
    // accumulations) restarts its chain every 10 adds, short enough for the core to overlap.
    Point loop = scalar_sum(6);
    loop.details["flops_by_width_scalar"] = 0;
    loop.details["flops_by_width_256"] = 1e8;
    loop.details["loop_entries"] = 1e8 / 40;
    EXPECT_DOUBLE_EQ(*code_traits(loop).accumulations_per_entry, 40.0);
    const auto r = machine();
    EXPECT_FALSE(has(analyze(r, loop, View::carm), NextStep::Kind::split_chain)) << all_advice(r, analyze(r, loop, View::carm));
    loop.details["loop_entries"] = 1e8 / 4096;  // 1024 vector adds an entry: one chain
    EXPECT_TRUE(has(analyze(r, loop, View::carm), NextStep::Kind::split_chain));
}

TEST(CodeTraits, ARegionStoringATotalEveryFewAddsIsNotOneChain) {
    // An audit's CSR SpMV marker region (rows of 8 nonzeros, 1M rows x5, y[i] = s): no loop
    // entries, but one double stored per 8 adds, 4.5% of its bytes stored, at 45% of one chain's
    // rate. Its chains restart every 8 adds: it was told to split the accumulator; the --loops
    // point of the same code was not. Neither split_chain nor the ILP ceiling is its advice.
    const auto r = machine_with_chain_ceiling();
    Point spmv;
    spmv.name = "spmv";
    spmv.work = 8e7;
    spmv.bytes = {{"L1", 8.8e8}, {"DRAM", 6.18e8}};
    spmv.seconds = spmv.work / (0.45 * 3.7e9);  // one chain: 3.7 GFLOP/s (2 FLOPs an add, 3.7 GHz)
    spmv.details = {{"flops_by_width_scalar", 8e7}, {"flops_f64_add", 4e7}, {"flops_f64_mul", 4e7},
                    {"bytes_loaded", 8.4e8},        {"bytes_stored", 4e7}};
    EXPECT_DOUBLE_EQ(*code_traits(spmv).accumulations_per_store, 8.0);
    auto a = analyze(r, spmv, View::carm);
    EXPECT_FALSE(has(a, NextStep::Kind::split_chain)) << all_advice(r, a);
    EXPECT_EQ(all_advice(r, a).find("dependency chain"), std::string::npos) << all_advice(r, a);
    EXPECT_TRUE(has(a, NextStep::Kind::vectorize)) << all_advice(r, a);
    // Rows of 2048 nonzeros (one total stored per 2048 adds): a long chain, told to split it.
    spmv.details["bytes_stored"] = 4e7 / 256;
    spmv.details["bytes_loaded"] = 8.4e8 + 4e7 - 4e7 / 256;
    a = analyze(r, spmv, View::carm);
    EXPECT_TRUE(has(a, NextStep::Kind::split_chain)) << all_advice(r, a);
    // A float region storing a float total per 8 adds: the same, with 4-byte values.
    Point floats = spmv;
    floats.details = {{"flops_by_width_scalar", 8e7}, {"flops_f32_add", 4e7}, {"flops_f32_mul", 4e7},
                      {"bytes_loaded", 4.2e8},        {"bytes_stored", 2e7}};
    EXPECT_DOUBLE_EQ(*code_traits(floats).accumulations_per_store, 8.0);
    // A sum that stores nothing chains without bound.
    EXPECT_TRUE(std::isinf(*code_traits(scalar_dot()).accumulations_per_store));
}

TEST(CodeTraits, AChainThatMovesAlmostNoBytesIsOneChainWhateverShareItStores) {
    // An audit's x = fma(x, a, b), 2e7 times in a marker region: 4e7 FLOPs, 1730 bytes loaded and
    // 1209 stored in all (41% stores of almost nothing), at 1.68 GFLOP/s, under one chain's 3.7.
    // Its share of stores called it no reduction: it was told to vectorize, and its ILP ceiling was
    // dropped as contradicted. One value stored per 132,000 accumulations is one chain.
    const auto r = machine_with_chain_ceiling();
    Point chain;
    chain.name = "chain";
    chain.work = 4e7;
    chain.bytes = {{"L1", 2939}};
    chain.seconds = chain.work / 1.68e9;
    chain.details = {{"flops_by_width_scalar", 4e7}, {"flops_f64_fma", 4e7}, {"bytes_loaded", 1730},
                     {"bytes_stored", 1209}};
    ASSERT_GT(*code_traits(chain).store_share, 0.4);
    const auto a = analyze(r, chain, View::carm);
    ASSERT_FALSE(a.next_steps.empty());
    EXPECT_EQ(a.next_steps.front().kind, NextStep::Kind::split_chain) << all_advice(r, a);
    const auto text = all_advice(r, a);
    EXPECT_NE(text.find("it stores one value per 1.32e+05 accumulations (one chain"), std::string::npos) << text;
    EXPECT_EQ(text.find("of its bytes (a reduction)"), std::string::npos) << text;
    // A loop storing as often as it accumulates (a third of its bytes, one store an FMA) is still none.
    Point stores = chain;
    stores.bytes = {{"L1", 2.4e8}};
    stores.details["bytes_loaded"] = 1.6e8;
    stores.details["bytes_stored"] = 0.8e8;
    EXPECT_FALSE(has(analyze(r, stores, View::carm), NextStep::Kind::split_chain));
}

TEST(CodeTraits, ALoopThatStoresItsResultsCarriesNoChain) {
    // daxpy in L1 with 256-bit FMAs at 12 GFLOP/s, under the ILP ceiling: it stores a third of
    // its bytes, each result as it goes, so no accumulator chains its iterations.
    const auto r = machine_with_chain_ceiling();
    Point daxpy;
    daxpy.name = "daxpy";
    daxpy.work = 2e8;
    daxpy.bytes = {{"L1", 2.4e9}};
    daxpy.seconds = daxpy.work / 12e9;
    daxpy.details = {{"flops_by_width_256", 2e8}, {"flops_f64_fma", 2e8}, {"bytes_loaded", 1.6e9},
                     {"bytes_stored", 0.8e9}};
    const auto a = analyze(r, daxpy, View::carm);
    EXPECT_EQ(all_advice(r, a).find("dependency chain"), std::string::npos) << all_advice(r, a);
}

TEST(CodeTraits, FewerStoreStreamsOnlyForAPointThatStoresMoreThanTheRoofsPattern) {
    // Under the L1 copy ceiling (250 GB/s) of a roof measured with a triad (a third of its bytes
    // stored): daxpy stores a third too, so the L1 roof is what is left; a blocked multiply that
    // loads and stores C's row each step (43% stored) is told to store less.
    EXPECT_DOUBLE_EQ(*pattern_store_share("triad"), 1.0 / 3);
    EXPECT_DOUBLE_EQ(*pattern_store_share("copy_nt"), 0.5);
    EXPECT_DOUBLE_EQ(*pattern_store_share("load"), 0.0);
    EXPECT_FALSE(pattern_store_share("gather"));
    const auto r = machine_with_chain_ceiling();
    Point daxpy;
    daxpy.name = "daxpy";
    daxpy.work = 2e8;
    daxpy.bytes = {{"L1", 2.4e9}};
    daxpy.seconds = daxpy.work / 19e9;  // 228 GB/s: under L1 copy (250), under the triad roof (310)
    daxpy.details = {{"flops_by_width_256", 2e8}, {"flops_f64_fma", 2e8}, {"bytes_loaded", 1.6e9},
                     {"bytes_stored", 0.8e9}};
    auto a = analyze(r, daxpy, View::carm);
    ASSERT_FALSE(a.next_steps.empty());
    EXPECT_EQ(a.next_steps[0].kind, NextStep::Kind::raise_intensity);
    EXPECT_EQ(a.next_steps[0].level, "L1");
    Point blocked = daxpy;
    blocked.details["bytes_loaded"] = 1.37e9;
    blocked.details["bytes_stored"] = 1.03e9;
    a = analyze(r, blocked, View::carm);
    ASSERT_FALSE(a.next_steps.empty());
    EXPECT_EQ(a.next_steps[0].kind, NextStep::Kind::lift_ceiling);
    EXPECT_EQ(a.next_steps[0].ceiling.name, "L1 copy");
    // A roof whose pattern nobody wrote down (a spec sheet): no claim, the ceiling stays.
    Roofline unknown = r;
    unknown.bandwidth[0].store_share.reset();
    EXPECT_EQ(analyze(unknown, daxpy, View::carm).next_steps[0].kind, NextStep::Kind::lift_ceiling);
}

TEST(CodeTraits, StoreStreamsAreNamedOnlyWhereTheyAreKnownAndSeveral) {
    // An audit's fill (y[i] = 0.5 * (i + r), one array, nothing loaded), measured: it stores all of
    // its bytes, more than the DRAM roof's copy (half), and was told "fewer store streams" with
    // one. Its counts do not say how many arrays it writes: the step keeps its storing-share
    // remedy and says nothing of streams.
    Roofline r = machine_with_chain_ceiling();
    r.bandwidth[1].store_share = 0.5;  // DRAM copy
    r.ceilings.push_back({"DRAM triad", CeilingKind::bandwidth, "pattern", "DRAM", 28, "", false});
    Point fill;
    fill.name = "fill";
    fill.work = 2.4e7;
    fill.bytes = {{"L1", 1.92e8}, {"DRAM", 3.49e8}};
    fill.seconds = 3.49e8 / 12.5e9;  // 12.5 GB/s at DRAM, under the triad ceiling (28)
    fill.details = {{"flops_by_width_256", 2.4e7}, {"flops_f64_mul", 2.4e7}, {"bytes_loaded", 0},
                    {"bytes_stored", 1.92e8}};
    auto pattern_step = [](const Analysis& a) -> const NextStep* {
        for (const auto& s : a.next_steps)
            if (s.kind == NextStep::Kind::lift_ceiling && s.ceiling.category == "pattern" && !s.ceiling.read_only)
                return &s;
        return nullptr;
    };
    auto a = analyze(r, fill, View::carm);
    const NextStep* step = pattern_step(a);
    ASSERT_TRUE(step) << all_advice(r, a);
    const auto text = next_step_text(r, *step);
    EXPECT_EQ(text.find("stream"), std::string::npos) << text;
    EXPECT_NE(text.find("it stores 100.0% of its bytes, copy 50.0%; store a smaller share"), std::string::npos) << text;
    // Known to write one array (a kernel spec's fill): no step asks it to store less.
    fill.details[kStoreStreamsDetail] = 1;
    a = analyze(r, fill, View::carm);
    EXPECT_FALSE(pattern_step(a)) << all_advice(r, a);
    // Known to write three: the step names them.
    fill.details[kStoreStreamsDetail] = 3;
    a = analyze(r, fill, View::carm);
    step = pattern_step(a);
    ASSERT_TRUE(step) << all_advice(r, a);
    EXPECT_NE(next_step_text(r, *step).find("fewer store streams (it writes 3 arrays)"), std::string::npos)
        << next_step_text(r, *step);
    // The ceiling's own advice, with no point: nothing about streams either.
    EXPECT_EQ(ceiling_advice(r, r.ceilings.back()).find("stream"), std::string::npos) << ceiling_advice(r, r.ceilings.back());
}

TEST(CodeTraits, NextStepKindsHaveStableNames) {
    EXPECT_STREQ(next_step_kind_name(NextStep::Kind::vectorize), "vectorize");
    EXPECT_STREQ(next_step_kind_name(NextStep::Kind::split_chain), "split_chain");
    EXPECT_STREQ(next_step_kind_name(NextStep::Kind::lift_ceiling), "lift_ceiling");
    EXPECT_STREQ(next_step_kind_name(NextStep::Kind::raise_intensity), "raise_intensity");
    EXPECT_STREQ(next_step_kind_name(NextStep::Kind::reach_compute), "reach_compute");
    EXPECT_STREQ(next_step_kind_name(NextStep::Kind::one_kind_mix), "one_kind_mix");
}

namespace {

// A Zen-4-like roofline with the mix ceilings a full bench measures (1 thread, 3.7 GHz): peak
// 88.7 GFLOP/s (FMAs and adds together), FMAs alone 59.1, adds or multiplies alone 29.6, one
// 512-bit chain 14.8, scalar 7.4; L1 measured with a triad (310 GB/s), DRAM 30.
Roofline machine_with_mix_ceilings() {
    Roofline r;
    r.label = "test";
    r.precision = "dp";
    r.threads = 1;
    r.clock_ghz = 3.7;
    r.compute = {"DP peak", "", 88.7, 0, std::nullopt};
    r.bandwidth = {{"L1 triad", "L1", 310, 0, 1.0 / 3}, {"DRAM copy", "DRAM", 30, 0, std::nullopt}};
    r.ceilings = {{kFmaOnlyCeilingName, CeilingKind::compute, "balance", "", 59.1, "", false},
                  {"ADD or MUL only", CeilingKind::compute, "balance", "", 29.6, "", false},
                  {"no ILP", CeilingKind::compute, "ilp", "", 14.8, "", false},
                  {"scalar (no SIMD)", CeilingKind::compute, "simd", "", 7.4, "", false}};
    return r;
}

// n elements of work at `gflops`, 256-bit vectors, in L1 with `bytes` loaded and `stored`, and
// the FLOPs split into FMA and add FLOPs by `fma_share` (an analytic point when `counted` is false).
Point vector_point(double gflops, double bytes_loaded, double bytes_stored, double fma_share, bool counted = true) {
    Point p;
    p.name = "kernel";
    p.work = 2e8;
    p.bytes = {{"L1", bytes_loaded + bytes_stored}};
    p.seconds = p.work / (gflops * 1e9);
    if (counted)
        p.details = {{"flops_by_width_256", p.work},
                     {"flops_f64_fma", fma_share * p.work},
                     {"flops_f64_add", (1 - fma_share) * p.work},
                     {"flops_f64_mul", 0},
                     {"bytes_loaded", bytes_loaded},
                     {"bytes_stored", bytes_stored}};
    return p;
}

bool advises_ceiling(const Analysis& a, const std::string& category) {
    return std::any_of(a.next_steps.begin(), a.next_steps.end(), [&](const NextStep& s) {
        return s.kind == NextStep::Kind::lift_ceiling && s.ceiling.category == category;
    });
}

} // namespace

TEST(CodeTraits, KindSharesFromTheCounts) {
    const auto t = code_traits(scalar_dot());  // n adds and n multiplies
    EXPECT_DOUBLE_EQ(*t.add_share, 0.5);
    EXPECT_DOUBLE_EQ(*t.mul_share, 0.5);
    EXPECT_DOUBLE_EQ(*t.fma_share, 0.0);
    Point analytic;
    analytic.work = 1;
    EXPECT_FALSE(code_traits(analytic).add_share);
}

TEST(CodeTraits, ACeilingTheCountsContradictDoesNotSandwichThePoint) {
    // daxpy in L1 at 5 GFLOP/s, all 256-bit FMAs, a third of its bytes stored: under the
    // scalar (7.4) and one-chain (14.8) ceilings by rate, past both by its counts (vector FLOPs;
    // it stores each result as it goes). The L1 roof at its intensity (25.8) is what bounds it.
    const auto r = machine_with_mix_ceilings();
    const auto a = analyze(r, vector_point(5, 1.6e9, 0.8e9, 1.0), View::carm);
    EXPECT_FALSE(a.upper) << a.upper->name;
    EXPECT_FALSE(a.lower) << a.lower->name;
    EXPECT_EQ(limiting_metric_text(r, a), "GB/s at L1");
    // The same loop built without SIMD: the scalar ceiling's premise holds, and it sandwiches it.
    Point scalar = vector_point(5, 1.6e9, 0.8e9, 1.0);
    scalar.details.erase("flops_by_width_256");
    scalar.details["flops_by_width_scalar"] = scalar.work;
    const auto s = analyze(r, scalar, View::carm);
    ASSERT_TRUE(s.upper);
    EXPECT_EQ(s.upper->name, "scalar (no SIMD)");
    EXPECT_NE(limiting_metric_text(r, s).find("scalar (no SIMD)"), std::string::npos);
}

TEST(CodeTraits, FusedCodeIsNotLimitedByTheAddOnlyCeilingNorToldToBalanceItsMix) {
    // A multiply in L1 at 1 FLOP/B, all FMAs, at 20 GFLOP/s: the ADD or MUL only ceiling (29.6)
    // is above it by rate, but its FLOPs are fused; FMAs alone (59.1) are what its mix allows.
    const auto r = machine_with_mix_ceilings();
    const auto a = analyze(r, vector_point(20, 1.9e8, 1e7, 1.0), View::carm);
    ASSERT_TRUE(a.upper);
    EXPECT_EQ(a.upper->name, kFmaOnlyCeilingName);
    EXPECT_FALSE(advises_ceiling(a, "balance")) << all_advice(r, a);
    EXPECT_FALSE(has(a, NextStep::Kind::one_kind_mix));  // far under the FMA rate: not what holds it
    EXPECT_EQ(all_advice(r, a).find("balance the operation mix"), std::string::npos) << all_advice(r, a);
    // Near the FMA-only rate (50 of 59.1): the step says so, with the counted share.
    const auto near = analyze(r, vector_point(50, 1.9e8, 1e7, 1.0), View::carm);
    ASSERT_FALSE(near.next_steps.empty());
    EXPECT_EQ(near.next_steps[0].kind, NextStep::Kind::one_kind_mix);
    EXPECT_EQ(near.next_steps[0].operation, "FMA");
    EXPECT_DOUBLE_EQ(near.next_steps[0].cap, 59.1);
    const auto text = all_advice(r, near);
    EXPECT_NE(text.find("100.0% of its FLOPs are FMAs (counted)"), std::string::npos) << text;
    EXPECT_EQ(text.find("balance the operation mix"), std::string::npos) << text;
}

TEST(CodeTraits, AddOnlyCodeIsToldItsMixCapsItNotToBalanceIt) {
    const auto r = machine_with_mix_ceilings();
    // A SIMD sum at 26 GFLOP/s (only loads, no FMA): adds alone cap it at 29.6.
    const auto a = analyze(r, vector_point(26, 1.6e8, 0, 0.0), View::carm);
    ASSERT_TRUE(a.upper);
    EXPECT_EQ(a.upper->name, "ADD or MUL only");
    EXPECT_FALSE(advises_ceiling(a, "balance")) << all_advice(r, a);
    ASSERT_TRUE(has(a, NextStep::Kind::one_kind_mix)) << all_advice(r, a);
    EXPECT_NE(all_advice(r, a).find("100.0% of its FLOPs are additions (counted)"), std::string::npos);
    // A scalar one-accumulator sum far under it: vectorize and split the chain, nothing about the mix.
    const auto chain = analyze(r, scalar_sum(1.2), View::carm);
    EXPECT_FALSE(advises_ceiling(chain, "balance")) << all_advice(r, chain);
    EXPECT_FALSE(has(chain, NextStep::Kind::one_kind_mix));
}

TEST(CodeTraits, ComputeBoundCodeOfOneKindIsToldItsMixCeilingNotThePeak) {
    // An audit's OpenBLAS DGEMM: compute-bound, 99.6% of its FLOPs FMAs, far under the FMA-only
    // rate. Its room is FMA only (59.1 here), not the peak (88.7), which needs adds beside the FMAs.
    const auto r = machine_with_mix_ceilings();
    const auto far = analyze(r, vector_point(20, 1.9e8, 1e7, 1.0), View::carm);
    ASSERT_FALSE(far.memory_bound);
    ASSERT_FALSE(far.next_steps.empty());
    const NextStep& last = far.next_steps.back();
    EXPECT_EQ(last.kind, NextStep::Kind::reach_compute);
    EXPECT_DOUBLE_EQ(last.cap, 59.1);
    EXPECT_EQ(last.ceiling.name, kFmaOnlyCeilingName);
    EXPECT_EQ(last.operation, "FMA");
    const auto text = all_advice(r, far);
    EXPECT_NE(text.find("100.0% of its FLOPs are FMAs (counted): they alone run at most 59.1 GFLOP/s here (the FMA "
                        "only ceiling)"),
              std::string::npos)
        << text;
    EXPECT_EQ(text.find("roof allows 88.7"), std::string::npos) << text;
    // Near it (55 of 59.1), one_kind_mix says it; the peak is not offered after it.
    const auto near = analyze(r, vector_point(55, 1.9e8, 1e7, 1.0), View::carm);
    EXPECT_TRUE(has(near, NextStep::Kind::one_kind_mix)) << all_advice(r, near);
    EXPECT_FALSE(has(near, NextStep::Kind::reach_compute)) << all_advice(r, near);
    // Half FMAs, half adds: no mix ceiling's premise, so the peak is its room.
    const auto mixed = analyze(r, vector_point(20, 1.9e8, 1e7, 0.5), View::carm);
    ASSERT_FALSE(mixed.next_steps.empty());
    EXPECT_EQ(mixed.next_steps.back().kind, NextStep::Kind::reach_compute);
    EXPECT_DOUBLE_EQ(mixed.next_steps.back().cap, 88.7);
    EXPECT_TRUE(mixed.next_steps.back().ceiling.name.empty());
    // 89% of its FMAs in float, judged on this dp roofline: dp FMAs alone are not its cap (sp FMAs
    // run twice as fast), so neither the cap nor one_kind_mix is claimed, near it or not.
    for (double gflops : {20.0, 55.0}) {
        Point mostly_float = vector_point(gflops, 1.9e8, 1e7, 1.0);
        mostly_float.details["flops_f64_fma"] = 0.11 * mostly_float.work;
        mostly_float.details["flops_f32_fma"] = 0.89 * mostly_float.work;
        EXPECT_NEAR(*code_traits(mostly_float).f64_share, 0.11, 1e-12);
        const auto m = analyze(r, mostly_float, View::carm);
        ASSERT_FALSE(m.next_steps.empty());
        EXPECT_FALSE(has(m, NextStep::Kind::one_kind_mix)) << all_advice(r, m);
        EXPECT_EQ(m.next_steps.back().kind, NextStep::Kind::reach_compute);
        EXPECT_DOUBLE_EQ(m.next_steps.back().cap, 88.7) << all_advice(r, m);
        EXPECT_TRUE(m.next_steps.back().ceiling.name.empty());
    }
    // Kinds not counted (an analytic point): no claim about its mix either.
    const auto analytic = analyze(r, vector_point(20, 1.9e8, 1e7, 1.0, false), View::carm);
    ASSERT_FALSE(analytic.next_steps.empty());
    EXPECT_DOUBLE_EQ(analytic.next_steps.back().cap, 88.7);
}

TEST(CodeTraits, AMixCeilingStaysWhereTheKindsWereNotCounted) {
    const auto r = machine_with_mix_ceilings();
    // Half FMA, half add FLOPs: neither mix ceiling's premise, neither bounds it.
    const auto mixed = analyze(r, vector_point(20, 1.9e8, 1e7, 0.5), View::carm);
    EXPECT_FALSE(mixed.upper && mixed.upper->category == "balance") << mixed.upper->name;
    EXPECT_FALSE(advises_ceiling(mixed, "balance"));
    // No counts (an analytic point): no claim, the ceilings' own words stay.
    const auto analytic = analyze(r, vector_point(20, 1.9e8, 1e7, 1.0, false), View::carm);
    ASSERT_TRUE(analytic.upper);
    EXPECT_EQ(analytic.upper->name, "ADD or MUL only");
    EXPECT_TRUE(advises_ceiling(analytic, "balance"));
}

TEST(CodeTraits, APatternCeilingOfTheOtherKindDoesNotSandwichThePoint) {
    // machine(): L1 load (loads alone, 200 GB/s) and L1 copy (250) under the L1 triad roof (310).
    const auto r = machine();
    // daxpy at 15 GFLOP/s (180 GB/s at 1/12 FLOP/B): under the loads-alone ceiling by rate, but
    // it stores a third of its bytes; the copy ceiling is the one of its kind.
    const auto daxpy = analyze(r, vector_point(15, 1.6e9, 0.8e9, 1.0), View::carm);
    ASSERT_TRUE(daxpy.upper);
    EXPECT_EQ(daxpy.upper->name, "L1 copy");
    // A SIMD sum that only loads, at 20 GFLOP/s (160 GB/s at 1/8 FLOP/B): loads alone bound it.
    Point sum = vector_point(20, 1.6e9, 0, 0.0);
    const auto a = analyze(r, sum, View::carm);
    ASSERT_TRUE(a.upper);
    EXPECT_EQ(a.upper->name, "L1 load");
    // At 27 GFLOP/s (216 GB/s): past loads alone and under copy, which it cannot be; under "no
    // FMA" (29.5), which a sum without multiplies is past as well: nothing sandwiches it.
    sum.seconds = sum.work / 27e9;
    const auto fast = analyze(r, sum, View::carm);
    EXPECT_FALSE(fast.upper) << fast.upper->name;
    EXPECT_EQ(all_advice(r, fast).find("into FMA"), std::string::npos) << all_advice(r, fast);
}

namespace {

// A five-point stencil sweep over n points at `gflops`, vectorized: 4 FLOPs, 32 B loaded and
// 8 B stored per point; at DRAM 24 B a point (the input grid, the output written and its
// write-allocate read), `unread` of them write-allocate fills that no load read (the cache
// simulation's count: 8 B for an output only written, 0 for daxpy's y, which is loaded first).
Point dram_stencil(double gflops, double unread_per_point, double dram_per_point = 24) {
    Point p;
    p.name = "stencil";
    const double n = 5e7;
    p.work = 4 * n;
    p.bytes = {{"L1", 40 * n}, {"DRAM", dram_per_point * n}};
    p.seconds = p.work / (gflops * 1e9);
    p.details = {{"flops_by_width_256", p.work},          {"flops_f64_add", 3 * n}, {"flops_f64_mul", n},
                 {"flops_f64_fma", 0},                    {"bytes_loaded", 32 * n}, {"bytes_stored", 8 * n},
                 {"cache_DRAM_write_allocate_unread_bytes", unread_per_point * n}};
    return p;
}

} // namespace

TEST(CodeTraits, UnreadWriteAllocateShareOfTheDramBytes) {
    EXPECT_NEAR(*code_traits(dram_stencil(2, 8)).unread_write_allocate_share, 1.0 / 3, 1e-12);
    EXPECT_EQ(*code_traits(dram_stencil(2, 0)).unread_write_allocate_share, 0);
    Point uncounted = dram_stencil(2, 8);
    uncounted.details.erase("cache_DRAM_write_allocate_unread_bytes");
    EXPECT_FALSE(code_traits(uncounted).unread_write_allocate_share);
}

// Issue 35: an output only written (a stencil's grid) is told to use non-temporal stores, with the
// counted share, before the generic "raise the intensity"; daxpy's y (read, then written) is not,
// nor a point whose unread fills are a small share, nor one that a cache binds.
TEST(CodeTraits, NonTemporalStoresForOutputWrittenAndNotReread) {
    const auto r = machine();  // DRAM 30 GB/s: 5 GFLOP/s at 4/24 FLOP/B
    const auto stencil = analyze(r, dram_stencil(2, 8), View::carm);
    ASSERT_TRUE(stencil.memory_bound);
    ASSERT_EQ(stencil.binding_level, "DRAM");
    ASSERT_TRUE(has(stencil, NextStep::Kind::non_temporal_stores)) << all_advice(r, stencil);
    const auto nt = std::find_if(stencil.next_steps.begin(), stencil.next_steps.end(),
                                 [](const NextStep& s) { return s.kind == NextStep::Kind::non_temporal_stores; });
    const auto raise = std::find_if(stencil.next_steps.begin(), stencil.next_steps.end(),
                                    [](const NextStep& s) { return s.kind == NextStep::Kind::raise_intensity; });
    EXPECT_LT(nt, raise);
    EXPECT_NEAR(nt->share, 1.0 / 3, 1e-12);
    const auto text = next_step_text(r, *nt);
    EXPECT_NE(text.find("33.3%"), std::string::npos) << text;
    EXPECT_NE(text.find("non-temporal"), std::string::npos) << text;
    EXPECT_STREQ(next_step_kind_name(NextStep::Kind::non_temporal_stores), "non_temporal_stores");

    EXPECT_FALSE(has(analyze(r, dram_stencil(2, 0), View::carm), NextStep::Kind::non_temporal_stores));  // daxpy
    EXPECT_FALSE(has(analyze(r, dram_stencil(2, 4), View::carm), NextStep::Kind::non_temporal_stores));  // 17%
    EXPECT_TRUE(has(analyze(r, dram_stencil(2, 4.8), View::carm), NextStep::Kind::non_temporal_stores));  // 20%
    // Mostly in L1 (1 B of DRAM a point, all of it an unread fill): L1 binds, the fills cost nothing there.
    const auto in_l1 = analyze(r, dram_stencil(20, 1, 1), View::carm);
    ASSERT_EQ(in_l1.binding_level, "L1");
    EXPECT_FALSE(has(in_l1, NextStep::Kind::non_temporal_stores)) << all_advice(r, in_l1);
}

TEST(CodeTraits, VectorCodeNarrowerThanTheRoofsIsToldSo) {
    // An SSE2 multiply (128-bit vectors only) judged against roofs measured with 512-bit vectors: an
    // audit's read 18% of an L1 roof it reached 77% of at its width, with no word of the width.
    Roofline r = machine();
    r.vector_bits = 512;
    Point sse = scalar_dot();
    sse.details["flops_by_width_scalar"] = 0;
    sse.details["flops_by_width_128"] = 2e8;
    const auto a = analyze(r, sse, View::carm);
    ASSERT_TRUE(has(a, NextStep::Kind::widen_vectors)) << all_advice(r, a);
    EXPECT_FALSE(has(a, NextStep::Kind::vectorize));
    const auto text = all_advice(r, a);
    EXPECT_NE(text.find("100.0% of its FLOPs ran in vectors of 128 bits or fewer"), std::string::npos) << text;
    EXPECT_NE(text.find("no 128-bit ceiling ('roofline bench --full' measures one)"), std::string::npos) << text;
    // A model that measured 128-bit vectors: that ceiling is named as its limit, said once.
    r.ceilings.push_back({"128-bit SIMD", CeilingKind::compute, "simd", "", 14.8, "", false});
    const auto with_steps = analyze(r, sse, View::carm);
    const auto with = all_advice(r, with_steps);
    EXPECT_NE(with.find("the 128-bit SIMD ceiling (14.8 GFLOP/s) is its compute limit"), std::string::npos) << with;
    // The SIMD ceiling above it asks for the same change: the step takes its place, not a second
    // "vectorize with the widest vectors ... -march=native" beside it.
    EXPECT_EQ(std::count_if(with_steps.next_steps.begin(), with_steps.next_steps.end(),
                            [](const NextStep& s) {
                                return s.kind == NextStep::Kind::widen_vectors ||
                                       (s.kind == NextStep::Kind::lift_ceiling && s.ceiling.category == "simd");
                            }),
              1)
        << with;
    EXPECT_EQ(with.find("vectorize with the widest vectors"), std::string::npos) << with;
    // Code as wide as the roofs, or roofs of unknown width: nothing said.
    Point wide = sse;
    wide.details["flops_by_width_128"] = 0;
    wide.details["flops_by_width_512"] = 2e8;
    EXPECT_FALSE(has(analyze(r, wide, View::carm), NextStep::Kind::widen_vectors));
    // Two thirds 128-bit, a third 512-bit: the step names the narrow width, not the widest (which
    // said '66.7% ... in vectors of 512 bits or fewer, the roofs were measured with 512-bit vectors').
    Point mixed = sse;
    mixed.details["flops_by_width_128"] = 2e8 * 2 / 3;
    mixed.details["flops_by_width_512"] = 2e8 / 3;
    const auto mixed_text = all_advice(r, analyze(r, mixed, View::carm));
    EXPECT_NE(mixed_text.find("66.7% of its FLOPs ran in vectors of 128 bits or fewer"), std::string::npos)
        << mixed_text;
    EXPECT_EQ(mixed_text.find("512 bits or fewer"), std::string::npos) << mixed_text;
    // Where DRAM binds, width is not what holds it back: an SSE2 triad in DRAM ran 55.6 GB/s, its
    // AVX-512 build 58.1 (Zen 5), though at 40% of the roof.
    Point dram = dram_stencil(2, 0);
    dram.details.erase("flops_by_width_256");
    dram.details["flops_by_width_128"] = dram.work;
    const auto in_dram = analyze(r, dram, View::carm);
    ASSERT_EQ(in_dram.binding_level, "DRAM");
    ASSERT_LT(in_dram.efficiency, 0.8);
    EXPECT_FALSE(has(in_dram, NextStep::Kind::widen_vectors)) << all_advice(r, in_dram);
    r.vector_bits = 0;
    EXPECT_FALSE(has(analyze(r, sse, View::carm), NextStep::Kind::widen_vectors));
    EXPECT_EQ(std::string(next_step_kind_name(NextStep::Kind::widen_vectors)), "widen_vectors");
}

TEST(CodeTraits, NarrowVectorsAreNotToldToWidenWhereTheBenchReachedTheCacheRoofAtTheirWidth) {
    // An audit's 256-bit dot product bound by L2 on a Zen 4 whose L2 streamed 114 GB/s at 128,
    // 256 and 512 bits was told to widen its vectors. Where the binding L1 or L2 roof's own run at
    // the point's width reached 95% of it, wider vectors cannot lift it; slower there, they can.
    Roofline r = machine();
    r.vector_bits = 512;
    Point sse = scalar_dot();
    sse.details["flops_by_width_scalar"] = 0;
    sse.details["flops_by_width_128"] = 2e8;
    r.bandwidth[0].share_at_width = {{128, 0.98}, {256, 0.99}, {512, 1.0}};
    const auto a = analyze(r, sse, View::carm);
    ASSERT_EQ(a.binding_level, "L1");
    EXPECT_FALSE(has(a, NextStep::Kind::widen_vectors)) << all_advice(r, a);
    r.bandwidth[0].share_at_width = {{128, 0.49}, {256, 0.99}, {512, 1.0}};  // SSE2 loads: half the L1 roof
    EXPECT_TRUE(has(analyze(r, sse, View::carm), NextStep::Kind::widen_vectors));
    r.bandwidth[0].share_at_width = {{256, 0.99}, {512, 1.0}};  // its width not run: nothing known, said
    EXPECT_TRUE(has(analyze(r, sse, View::carm), NextStep::Kind::widen_vectors));
}

TEST(MachineRoofline, ABandwidthRoofCarriesItsIsaTrialsAsSharesByWidth) {
    MachineModel m;
    m.cpu.clock_ghz = 3.7;
    m.compute.push_back({});
    m.compute.back().precision = "dp";
    m.compute.back().threads = 1;
    m.compute.back().gflops = 59;
    MemoryRoof l2;
    l2.level = "L2";
    l2.pattern = "load";
    l2.threads = 1;
    l2.gbs = 118;
    l2.isa = "avx2";
    l2.isa_trials = {{"avx512", 115.7}, {"avx2", 117.4}, {"sse2", 114.0}};
    m.memory.push_back(l2);
    const auto r = roofline_from_machine(m, {"dp", 1});
    ASSERT_EQ(r.bandwidth.size(), 1u);
    const auto& shares = r.bandwidth[0].share_at_width;
    ASSERT_EQ(shares.size(), 3u);
    EXPECT_DOUBLE_EQ(shares.at(256), 1.0);
    EXPECT_NEAR(shares.at(128), 114.0 / 117.4, 1e-12);
    EXPECT_NEAR(shares.at(512), 115.7 / 117.4, 1e-12);
}

TEST(CodeTraits, NarrowVectorsAreNotToldToWidenWhereTheCoreRunsThemAtItsPeak) {
    // Compute-bound 256-bit code judged on roofs measured with 512-bit vectors (intensity 1.25
    // FLOP/B: L1 allows 387 GFLOP/s, over the 59 peak).
    Roofline r = machine();
    r.vector_bits = 512;
    Point avx2 = scalar_dot();
    avx2.bytes = {{"L1", 1.6e8}};
    avx2.details["bytes_loaded"] = 1.6e8;
    avx2.details["flops_by_width_scalar"] = 0;
    avx2.details["flops_by_width_256"] = 2e8;
    ASSERT_FALSE(analyze(r, avx2, View::carm).memory_bound);
    // A core whose 512-bit peak is twice its 256-bit one (Zen 5): widening is the step.
    r.peak_share_at_width = {{256, 0.5}, {128, 0.25}};
    const auto zen5 = analyze(r, avx2, View::carm);
    ASSERT_TRUE(has(zen5, NextStep::Kind::widen_vectors));
    EXPECT_NE(all_advice(r, zen5).find("by the core's pipes (the microarchitecture table) 256 bits allow at most 50.0% "
                                       "of the DP peak, 29.5 GFLOP/s"),
              std::string::npos)
        << all_advice(r, zen5);
    // Zen 4 runs 512-bit ops as two 256-bit halves: its table gives 256 bits the whole peak.
    r.peak_share_at_width = {{256, 1.0}, {128, 0.5}};
    EXPECT_FALSE(has(analyze(r, avx2, View::carm), NextStep::Kind::widen_vectors))
        << all_advice(r, analyze(r, avx2, View::carm));
    // A measured 256-bit ceiling at the peak says the same where the table says nothing; one at
    // half of it keeps the step, whatever the table says.
    r.peak_share_at_width.clear();
    r.ceilings.push_back({"256-bit SIMD", CeilingKind::compute, "simd", "", 58, "", false});
    EXPECT_FALSE(has(analyze(r, avx2, View::carm), NextStep::Kind::widen_vectors));
    r.ceilings.back().value = 29.5;
    r.peak_share_at_width = {{256, 1.0}};
    EXPECT_TRUE(has(analyze(r, avx2, View::carm), NextStep::Kind::widen_vectors));
}

TEST(CodeTraits, TheMicroarchitectureAModelNamesGivesEachWidthsShareOfThePeak) {
    const auto zen4 = microarch_named("AMD Zen 4", true);
    ASSERT_TRUE(zen4);
    const auto zen5 = microarch_named("AMD Zen 5", true);
    ASSERT_TRUE(zen5);
    const auto share = [](const Microarch& m, int bits) {
        return best_flops_per_cycle(fp_pipes_for(m, bits), true, true, true, bits, 64) /
               best_flops_per_cycle(fp_pipes_for(m, 512), true, true, true, 512, 64);
    };
    EXPECT_DOUBLE_EQ(share(*zen4, 256), 1.0);
    EXPECT_DOUBLE_EQ(share(*zen5, 256), 0.5);
    EXPECT_TRUE(microarch_named("Intel Sapphire Rapids class (identified by AMX)", true));
    EXPECT_FALSE(microarch_named("", true));
    EXPECT_FALSE(microarch_named("AMD Zen 9", true));
}

// A point named by its file alone: "(no symbol: FILE)" for code in no function of the file's unwind
// table (hand-written assembly without CFI), and a file whose name holds a '+' (libstdc++). The
// name's file was read up to its last '+', so these were not library code and got the program's
// advice (vectorize, -march=native).
TEST(CodeTraits, LibraryFromANoSymbolNameWithoutAnOffsetOrWithAPlusInIt) {
    const auto library_of = [](const std::string& name) {
        Point p;
        p.name = name;
        return code_traits(p).library;
    };
    EXPECT_EQ(library_of("(no symbol: libfftw3.so.3.6.10+0x2c500)"), "libfftw3.so.3.6.10");
    EXPECT_EQ(library_of("(no symbol: libopenblas.so.0)"), "libopenblas.so.0");
    EXPECT_EQ(library_of("(no symbol: libstdc++.so.6+0x9f3a0)"), "libstdc++.so.6");
    EXPECT_EQ(library_of("(no symbol: libstdc++.so.6)"), "libstdc++.so.6");
    EXPECT_FALSE(library_of("(no symbol: prog+0x1140)"));
    EXPECT_FALSE(library_of("(no symbol: prog)"));
    EXPECT_FALSE(library_of("(no symbol: [vdso])"));
}

namespace {

// The textbook multiply (tests/advice_programs/matmul_naive.c) as measured on a Zen 4: 2 N^3 FLOPs
// of N = 256 as 256-bit FMAs, one chain per vector of C (N FMAs per vector stored), each FMA's
// line of B from L2 (64 B per 8 FLOPs), at 4.86 GFLOP/s.
Point naive_multiply() {
    Point p;
    p.name = "matmul_naive";
    p.work = 2.0 * 256 * 256 * 256;
    p.bytes = {{"L1", p.work / 0.2}, {"L2", p.work / 0.125}};
    p.seconds = p.work / 4.86e9;
    p.details = {{"flops_by_width_256", p.work}, {"flops_f64_fma", p.work}, {"bytes_loaded", p.work / 0.2},
                 {"bytes_stored", 256.0 * 256 * 8}};
    return p;
}

// The same counts with every line it brings from L2 used (as many L2 bytes as it loads, a
// unit-stride walk): what the chain rules judge by rate alone.
Point multiply_using_its_lines() {
    Point p = naive_multiply();
    p.bytes["L2"] = p.details["bytes_loaded"];
    return p;
}

} // namespace

TEST(CodeTraits, AMultiplyWalkingAColumnIsToldItsStrideNotItsChain) {
    // The textbook multiply brings 64 B from L2 per 40 B it loads (each FMA's line of B): at 0.66
    // of one chain's rate, yet four accumulators made it no faster on a Zen 4 and the loop order
    // ikj 7x faster. Neither split_chain nor the ILP ceiling: its L2 roof, with the lines' use said.
    Roofline r = machine_with_chain_ceiling();
    r.bandwidth.push_back({"L2 copy", "L2", 150});
    r.chain_cycles = 4;
    // (its stores, one vector per 256 FMAs, count twice: 1.59)
    EXPECT_NEAR(*code_traits(naive_multiply()).l2_bytes_per_accessed_byte, 1.59, 0.005);
    const auto a = analyze(r, naive_multiply(), View::carm);
    EXPECT_FALSE(has(a, NextStep::Kind::split_chain)) << all_advice(r, a);
    for (const auto& s : a.next_steps)
        EXPECT_FALSE(s.kind == NextStep::Kind::lift_ceiling && s.ceiling.category == "ilp") << next_step_text(r, s);
    EXPECT_FALSE(a.upper && a.upper->category == "ilp") << a.upper->name;
    ASSERT_FALSE(a.next_steps.empty());
    EXPECT_EQ(a.next_steps[0].kind, NextStep::Kind::raise_intensity) << all_advice(r, a);
    EXPECT_EQ(a.next_steps[0].level, "L2");
    EXPECT_NEAR(a.next_steps[0].share, 0.629, 0.001);
    EXPECT_NE(all_advice(r, a).find("use 62.9% of the bytes of the lines"), std::string::npos) << all_advice(r, a);
    EXPECT_NE(all_advice(r, a).find("unit stride"), std::string::npos);
    EXPECT_NE(render_report({a}, r, ReportFormat::json).find("\"lines_used_share\": 0.6289"), std::string::npos)
        << render_report({a}, r, ReportFormat::json);
    // A copy streaming past L1 (8 B loaded and 8 stored, 24 B of L2 traffic: both fills and the
    // write-back) uses its lines: the generic advice.
    Point copy;
    copy.name = "copy";
    copy.work = 1e6;
    copy.bytes = {{"L1", 1.6e7}, {"L2", 2.4e7}};
    copy.seconds = 1e-3;
    copy.details = {{"bytes_loaded", 8e6}, {"bytes_stored", 8e6}};
    EXPECT_DOUBLE_EQ(*code_traits(copy).l2_bytes_per_accessed_byte, 1.0);
    const auto c = analyze(r, copy, View::carm);
    ASSERT_TRUE(has(c, NextStep::Kind::raise_intensity)) << all_advice(r, c);
    for (const auto& s : c.next_steps) {
        if (s.kind == NextStep::Kind::raise_intensity) {
            EXPECT_EQ(s.share, 0) << next_step_text(r, s);
        }
    }
}

TEST(CodeTraits, AChainUnderTheMeasuredChainsRateKeepsItsIlpAdvice) {
    // One 256-bit FMA chain: 7.4 GFLOP/s at 3.7 GHz and the measured 4 cycles, 14.8 at the hedged
    // 2. At 4.86 a multiply using its lines runs at 0.66 of its own chain, 0.33 of the hedged one:
    // measured, its chain holds it (splitting its vector chain leads, in the ILP ceiling's place);
    // unmeasured, the 2-cycle hedge leaves it to something else (under a third of that rate).
    Roofline r = machine_with_chain_ceiling();
    r.bandwidth.push_back({"L2 copy", "L2", 150});
    r.chain_cycles = 4;
    const auto measured = analyze(r, multiply_using_its_lines(), View::carm);
    ASSERT_FALSE(measured.next_steps.empty());
    EXPECT_EQ(measured.next_steps[0].kind, NextStep::Kind::split_chain) << all_advice(r, measured);
    EXPECT_EQ(measured.next_steps[0].operation, "256") << all_advice(r, measured);
    // one value stored per N FMAs: 256 lane accumulations, 64 vector FMAs
    EXPECT_DOUBLE_EQ(measured.next_steps[0].accumulations_per_store, 64.0);
    r.chain_cycles = 0;
    const auto hedged = analyze(r, multiply_using_its_lines(), View::carm);
    EXPECT_EQ(all_advice(r, hedged).find("dependency chain"), std::string::npos) << all_advice(r, hedged);
    EXPECT_FALSE(has(hedged, NextStep::Kind::split_chain)) << all_advice(r, hedged);
    // Far under even the measured chain (a quarter of it), its adds wait for something else.
    r.chain_cycles = 4;
    Point slow = multiply_using_its_lines();
    slow.seconds = slow.work / 1.8e9;
    EXPECT_EQ(all_advice(r, analyze(r, slow, View::carm)).find("dependency chain"), std::string::npos);
    EXPECT_FALSE(has(analyze(r, slow, View::carm), NextStep::Kind::split_chain));
}


TEST(MachineRoofline, TheMeasuredChainGivesTheCoresCyclesPerAccumulation) {
    // A full bench's 512-bit dp chain on a Zen 4 at 3.69 GHz: 14.28 GFLOP/s, 16 FLOPs an
    // accumulation (8 lanes x an FMA): 4.13 cycles each. A quick bench measures no chain: 0.
    MachineModel m;
    m.cpu.clock_ghz = 3.69;
    ComputeRoof peak;
    peak.precision = "dp";
    peak.threads = 1;
    peak.vector_bits = 512;
    peak.mix = "best";
    peak.gflops = 86.4;
    m.compute.push_back(peak);
    EXPECT_EQ(roofline_from_machine(m, {"dp", 1}).chain_cycles, 0);
    ComputeRoof chain = peak;
    chain.mix = "chain";
    chain.gflops = 14.28;
    m.compute.push_back(chain);
    EXPECT_NEAR(roofline_from_machine(m, {"dp", 1}).chain_cycles, 3.69 * 16 / 14.28, 1e-9);
    EXPECT_EQ(roofline_from_machine(m, {"dp", 1}).chain_cycles_from, "");
}

TEST(MachineRoofline, WithoutAMeasuredChainTheTablesFmaLatencyStands) {
    // A quick bench on a Zen 4 measures no chain: the advice reckoned 2 cycles an accumulation, and an
    // audit's multiply "ran at about one chain's rate (14.6 GFLOP/s)" while one chain of its 4-cycle
    // FMAs runs 7.3 (7.33 measured). The table's FMA latency, said as the table's.
    MachineModel m;
    m.cpu.clock_ghz = 3.69;
    m.environment.microarchitecture = "AMD Zen 4";
    ComputeRoof peak;
    peak.precision = "dp";
    peak.threads = 1;
    peak.vector_bits = 512;
    peak.mix = "best";
    peak.gflops = 86.4;
    m.compute.push_back(peak);
    ComputeRoof fma = peak;  // what a quick bench measures at its widest vectors
    fma.mix = "fma";
    fma.gflops = 58;
    m.compute.push_back(fma);
    const Roofline r = roofline_from_machine(m, {"dp", 1});
    EXPECT_EQ(r.chain_cycles, 4);
    EXPECT_EQ(r.chain_cycles_from, "AMD Zen 4");
    // A core the table does not know: none.
    m.environment.microarchitecture = "unknown";
    EXPECT_EQ(roofline_from_machine(m, {"dp", 1}).chain_cycles, 0);
    // A measured chain wins over the table.
    m.environment.microarchitecture = "AMD Zen 4";
    ComputeRoof chain = peak;
    chain.mix = "chain";
    chain.gflops = 14.28;
    m.compute.push_back(chain);
    EXPECT_NEAR(roofline_from_machine(m, {"dp", 1}).chain_cycles, 3.69 * 16 / 14.28, 1e-9);
    EXPECT_EQ(roofline_from_machine(m, {"dp", 1}).chain_cycles_from, "");
}

TEST(CodeTraits, TheIlpCeilingOfANarrowerPointIsOneChainAtItsOwnWidth) {
    // The machine's "no ILP" is one 512-bit chain (14.8 GFLOP/s); the 256-bit multiply's own
    // chain carries half the lanes: 7.4, the ceiling above it at 4.86, named for its width.
    Roofline r = machine_with_chain_ceiling();
    r.vector_bits = 512;
    r.bandwidth.push_back({"L2 copy", "L2", 150});
    r.chain_cycles = 4;
    const auto a = analyze(r, multiply_using_its_lines(), View::carm);
    ASSERT_TRUE(a.upper.has_value());
    EXPECT_EQ(a.upper->name, "no ILP, 256-bit");
    EXPECT_DOUBLE_EQ(a.upper->value, 7.4);
    // At the widest width (and 10 GFLOP/s, 0.68 of that chain) the machine's ceiling stands as it is.
    Point wide = multiply_using_its_lines();
    wide.seconds = wide.work / 10e9;
    wide.details.erase("flops_by_width_256");
    wide.details["flops_by_width_512"] = wide.work;
    const auto w = analyze(r, wide, View::carm);
    ASSERT_TRUE(w.upper.has_value());
    EXPECT_EQ(w.upper->name, "no ILP");
    EXPECT_DOUBLE_EQ(w.upper->value, 14.8);
}

TEST(CodeTraits, SplitChainSaysTheMeasuredChainsRateWhereTheBenchMeasuredIt) {
    // The scalar dot at 2.2 GFLOP/s: 3.7 at the hedged 2 cycles, 1.85 at a measured 4-cycle FMA
    // chain; both said, so "about one chain's rate" is checkable. Unmeasured: the hedge alone.
    Roofline r = machine();
    r.chain_cycles = 4;
    const auto text = all_advice(r, analyze(r, scalar_dot(), View::carm));
    EXPECT_NE(text.find("(3.70 GFLOP/s at the measured clock, one accumulation per 2 cycles, the fastest x86 add; "
                        "1.85 GFLOP/s at this core's FMA chain, 4.0 cycles as the bench measured it)"),
              std::string::npos)
        << text;
    r.chain_cycles = 0;
    const auto hedged = all_advice(r, analyze(r, scalar_dot(), View::carm));
    EXPECT_NE(hedged.find("(3.70 GFLOP/s at the measured clock, one accumulation per 2 cycles)"), std::string::npos)
        << hedged;
}

// An audit's add chain on 4 threads at 1.7% of the L1 roof was told "loads alone stream slower here
// than triad (L1): fuse read-only passes" first, though it waits for each add, not for its loads.
// A sum in 256-bit vectors with one accumulator, at its one chain's rate (3.7 GHz / 2 cycles x 4
// lanes = 7.4 GFLOP/s): 5 GFLOP/s, 8 B loaded per FLOP, far under the loads-alone ceiling (200
// GB/s: 25 GFLOP/s at 1/8 FLOP/B). On a model without an ILP ceiling nothing else spoke first.
TEST(CodeTraits, AChainHeldSumIsNotToldToFuseReadOnlyPasses) {
    const auto r = machine();
    Point p;
    p.name = "vector chain";
    const double n = 1e8;
    p.work = n;
    p.bytes = {{"L1", 8 * n}};
    p.details = {{"flops_by_width_256", n}, {"flops_f64_add", n}, {"flops_f64_mul", 0}, {"flops_f64_fma", 0},
                 {"bytes_loaded", 8 * n},   {"bytes_stored", 0}};
    const auto loads_alone = [&](const Analysis& a) {
        return std::any_of(a.next_steps.begin(), a.next_steps.end(), [](const NextStep& s) {
            return s.kind == NextStep::Kind::lift_ceiling && s.ceiling.category == "pattern" && s.ceiling.read_only;
        });
    };
    p.seconds = p.work / 5e9;
    const auto held = analyze(r, p, View::carm);
    EXPECT_FALSE(loads_alone(held)) << all_advice(r, held);
    EXPECT_EQ(all_advice(r, held).find("fuse read-only passes"), std::string::npos) << all_advice(r, held);
    // Past its chain's rate (8 accumulators' worth would run at 20), it is no longer held by one
    // chain: near the loads-alone ceiling that ceiling is its next limit again.
    p.seconds = p.work / 20e9;
    const auto fast = analyze(r, p, View::carm);
    EXPECT_TRUE(loads_alone(fast)) << all_advice(r, fast);
    // Far under one chain's rate (a third of it: 2.47) its adds wait for something else, but at
    // 4% of the loads-alone ceiling not for what loads alone stream: no step names that ceiling.
    p.seconds = p.work / 1e9;
    const auto slow = analyze(r, p, View::carm);
    EXPECT_FALSE(loads_alone(slow)) << all_advice(r, slow);
    ASSERT_TRUE(slow.upper);
    EXPECT_EQ(slow.upper->name, "L1 load");  // it still sandwiches the point
}

// An audit's 2 threads summing a 64 MiB array in DRAM (scalar, one add chain each, one thread
// doing twice the other's share): 6.29e7 adds over 3.79e8 DRAM bytes, at 1.20 GFLOP/s, 18% of
// the DRAM load ceiling (39.6 GB/s: 6.57 GFLOP/s at 0.166 FLOP/B), was told "fuse read-only
// passes" after "vectorize". Near that ceiling (70% of it) the step is its next limit again.
TEST(CodeTraits, AReadOnlyPointFarUnderTheLoadsAloneCeilingIsNotToldToFuseReadOnlyPasses) {
    Roofline r;
    r.label = "test";
    r.precision = "dp";
    r.threads = 2;
    r.clock_ghz = 3.69;
    r.compute = {"DP peak", "", 177};
    r.bandwidth = {{"DRAM copy+WA", "DRAM", 58.7}};
    r.bandwidth[0].store_share = 0.5;
    r.ceilings = {{"DRAM load", CeilingKind::bandwidth, "pattern", "DRAM", 39.6, "", true}};
    Point p;
    p.name = "sum";
    p.threads = 2;
    p.work = 6.29e7;
    p.bytes = {{"DRAM", 3.79e8}};
    p.seconds = p.work / 1.2e9;
    p.details = {{"flops_by_width_scalar", 6.29e7}, {"flops_f64_add", 6.29e7}, {"flops_f64_mul", 0},
                 {"flops_f64_fma", 0},              {"bytes_loaded", 5.03e8}, {"bytes_stored", 8}};
    const auto fuse = [](const Analysis& a) {
        return std::any_of(a.next_steps.begin(), a.next_steps.end(), [](const NextStep& s) {
            return s.kind == NextStep::Kind::lift_ceiling && s.ceiling.category == "pattern" && s.ceiling.read_only;
        });
    };
    const auto far = analyze(r, p, View::carm);
    EXPECT_FALSE(fuse(far)) << all_advice(r, far);
    EXPECT_EQ(all_advice(r, far).find("fuse read-only passes"), std::string::npos) << all_advice(r, far);
    EXPECT_TRUE(has(far, NextStep::Kind::vectorize)) << all_advice(r, far);
    EXPECT_TRUE(has(far, NextStep::Kind::raise_intensity)) << all_advice(r, far);
    ASSERT_TRUE(far.upper);
    EXPECT_EQ(far.upper->name, "DRAM load");
    p.seconds = p.work / 4.6e9;  // 70% of the loads-alone ceiling
    const auto near = analyze(r, p, View::carm);
    EXPECT_TRUE(fuse(near)) << all_advice(r, near);
    EXPECT_NE(all_advice(r, near).find("fuse read-only passes"), std::string::npos) << all_advice(r, near);
}

TEST(CodeTraits, OneChainPerThreadCountsOnlyTheCpusTheRunWasAllowed) {
    // The scalar dot on 8 threads of an 8-thread machine, at 2.2 GFLOP/s in all: as 8 chains (17.6
    // at best) it runs far under them, its adds waiting for something else, and split_chain is
    // withheld; run under `taskset -c 0` (measure's cpus_allowed 1) one chain runs at a time, and
    // 2.2 is one chain's rate: split_chain, as for one thread.
    auto r = machine();
    r.hardware_threads = 8;
    Point p = scalar_dot();
    p.threads = 8;
    EXPECT_FALSE(has(analyze(r, p, View::carm), NextStep::Kind::split_chain)) << all_advice(r, analyze(r, p, View::carm));
    p.details[kCpusAllowed] = 1;
    const auto a = analyze(r, p, View::carm);
    ASSERT_FALSE(a.next_steps.empty());
    EXPECT_EQ(a.next_steps[0].kind, NextStep::Kind::split_chain) << all_advice(r, a);
}

namespace {

// An audit's Zen 4 model, 1 thread: DP peak 88.7 GFLOP/s, L1 triad 314 GB/s, L2 copy+WA 177
// (under it loads alone 118, triad+WA 158), DRAM copy+WA 52.4.
Roofline zen4_l2_patterns() {
    Roofline r;
    r.label = "test";
    r.precision = "dp";
    r.threads = 1;
    r.clock_ghz = 3.69;
    r.compute = {"DP peak", "", 88.7};
    r.bandwidth = {{"L1 triad", "L1", 314}, {"L2 copy+WA", "L2", 177}, {"DRAM copy+WA", "DRAM", 52.4}};
    r.bandwidth[0].store_share = 1.0 / 3;
    r.bandwidth[1].store_share = 0.5;
    r.bandwidth[2].store_share = 0.5;
    r.ceilings = {{"scalar (no SIMD)", CeilingKind::compute, "simd", "", 11.1, "", false},
                  {"L2 load", CeilingKind::bandwidth, "pattern", "L2", 118, "", true},
                  {"L2 triad+WA", CeilingKind::bandwidth, "pattern", "L2", 158, "", false}};
    return r;
}

// That audit's CSR SpMV (1e6 rows of 8 nonzeros at random columns, 10 products), scalar, counted:
// 1.6e8 FLOPs (a multiply and an add a nonzero), 1.68 GB loaded, 80 MB stored (y), 6.26 GB from
// L2 (each gather of x brings a line for 8 of its 64 bytes), at 1.10 GFLOP/s: 24% of its L2 roof.
Point random_spmv() {
    Point p;
    p.name = "spmv";
    p.work = 1.6e8;
    p.bytes = {{"L1", 1.76e9}, {"L2", 6.26e9}, {"DRAM", 1.16e9}};
    p.seconds = p.work / 1.10e9;
    p.details = {{"flops_by_width_scalar", 1.6e8}, {"flops_by_width_128", 0}, {"flops_by_width_256", 0},
                 {"flops_f64_add", 8e7},           {"flops_f64_mul", 8e7},   {"flops_f64_fma", 0},
                 {"bytes_loaded", 1.68e9},         {"bytes_stored", 8e7}};
    return p;
}

} // namespace

TEST(CodeTraits, AGatherFarUnderItsCacheRoofIsToldTheLinesItWastesBesideItsCode) {
    // Scalar, far under its L2 roof (24%): its code comes first (vectorize), and the access
    // patterns held back behind it; yet it brings 3.4x the bytes it accesses from L2, which
    // is what its loads wait for: its raise_intensity says the lines' use and how to order
    // indexed data, after the code's step.
    const auto r = zen4_l2_patterns();
    const auto a = analyze(r, random_spmv(), View::carm);
    EXPECT_EQ(a.binding_level, "L2");
    EXPECT_LT(a.efficiency, 0.5);
    ASSERT_GE(a.next_steps.size(), 2u) << all_advice(r, a);
    EXPECT_EQ(a.next_steps[0].kind, NextStep::Kind::vectorize);
    const auto raise = std::find_if(a.next_steps.begin(), a.next_steps.end(),
                                    [](const NextStep& s) { return s.kind == NextStep::Kind::raise_intensity; });
    ASSERT_NE(raise, a.next_steps.end()) << all_advice(r, a);
    EXPECT_EQ(raise->level, "L2");
    EXPECT_NEAR(raise->share, 1.84 / 6.26, 0.001);  // 1.68 GB loaded + 2 x 80 MB stored over 6.26 GB
    const auto text = next_step_text(r, *raise);
    EXPECT_NE(text.find("use 29.4% of the bytes of the lines"), std::string::npos) << text;
    EXPECT_NE(text.find("reverse Cuthill-McKee"), std::string::npos) << text;
    EXPECT_NE(text.find("unit stride"), std::string::npos) << text;
    // The same point using its lines (as many bytes from L2 as it accesses): code first, the
    // generic intensity advice held back as before.
    Point streams = random_spmv();
    streams.bytes["L2"] = 1.84e9;
    streams.bytes.erase("DRAM");  // in L2 alone, whose roof binds it
    streams.seconds = streams.work / 0.3e9;  // under half of its L2 roof (177 x 0.087 = 15.4)
    const auto s = analyze(r, streams, View::carm);
    ASSERT_EQ(s.binding_level, "L2");
    ASSERT_LT(s.efficiency, 0.5);
    EXPECT_TRUE(has(s, NextStep::Kind::vectorize)) << all_advice(r, s);
    EXPECT_FALSE(has(s, NextStep::Kind::raise_intensity)) << all_advice(r, s);
}

TEST(CodeTraits, AStoringPatternCeilingDoesNotSandwichAPointThatStoresLessThanItsRoof) {
    // The SpMV stores 4.5% of its bytes, under the 50% of the L2 roof's copy: the triad ceiling
    // (a storing pattern, whose remedy is a smaller share of stores) is not its limit, nor is
    // loads alone (it stores): nothing sandwiches it, and no text tells it to store less.
    const auto r = zen4_l2_patterns();
    const auto a = analyze(r, random_spmv(), View::carm);
    EXPECT_FALSE(a.upper) << a.upper->name;
    const auto json = render_report({a}, r, ReportFormat::json);
    EXPECT_EQ(json.find("store a smaller share"), std::string::npos) << json;
    EXPECT_EQ(all_advice(r, a).find("store a smaller share"), std::string::npos) << all_advice(r, a);
    // A point storing 70% of its bytes in L2 (a fill with a little reading) at 100 GB/s, under
    // the triad ceiling (158): the ceiling is its limit, its remedy with its share.
    Point fill;
    fill.name = "fill";
    fill.work = 1e8;
    fill.bytes = {{"L2", 1e9}};
    fill.seconds = 1e9 / 100e9;
    fill.details = {{"flops_by_width_256", 1e8}, {"flops_f64_mul", 1e8}, {"bytes_loaded", 3e8},
                    {"bytes_stored", 7e8}};
    const auto f = analyze(r, fill, View::carm);
    ASSERT_TRUE(f.upper);
    EXPECT_EQ(f.upper->name, "L2 triad+WA");
    EXPECT_NE(all_advice(r, f).find("it stores 70.0% of its bytes, copy+WA 50.0%; store a smaller share"),
              std::string::npos)
        << all_advice(r, f);
}
