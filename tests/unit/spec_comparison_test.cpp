// A measured model beside a spec sheet: each figure of the sheet matched to the measured roof
// that answers it (threads, precision, level), what could not be matched, and a measured roof
// above the sheet's figure called out.
#include "core/spec_comparison.hpp"
#include "io/machine_spec_yaml.hpp"
#include "render/comparison_text.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

using namespace roofline;

namespace {

void add_compute(MachineModel& m, const std::string& precision, const std::string& isa, const std::string& mix,
                 int threads, double gflops) {
    ComputeRoof c;
    c.precision = precision;
    c.isa = isa;
    c.mix = mix;
    c.threads = threads;
    c.gflops = gflops;
    m.compute.push_back(c);
}

void add_memory(MachineModel& m, const std::string& level, const std::string& pattern, int threads, double gbs) {
    MemoryRoof r;
    r.level = level;
    r.pattern = pattern;
    r.isa = "avx2";
    r.threads = threads;
    r.gbs = gbs;
    m.memory.push_back(r);
}

// A 2-thread machine: dp at 1 and 2 threads (two mixes at 2), sp at 2; DRAM two patterns, L1
// at 2 threads, L2 at 1 thread only.
MachineModel measured_model() {
    MachineModel m;
    m.cpu.model = "measured";
    m.cpu.threads = 2;
    add_compute(m, "dp", "avx2", "fma", 2, 100);
    add_compute(m, "dp", "avx2", "mul+add", 2, 60);
    add_compute(m, "dp", "avx2", "fma", 1, 50);
    add_compute(m, "sp", "avx2", "fma", 2, 200);
    add_memory(m, "DRAM", "load", 2, 20);
    add_memory(m, "DRAM", "copy", 2, 18);
    add_memory(m, "DRAM", "load", 1, 12);
    add_memory(m, "L1", "load", 2, 400);
    add_memory(m, "L2", "load", 1, 90);
    return m;
}

MachineFile sheet(const std::string& peaks, const std::string& bandwidths, const std::string& more = "") {
    return machine_spec_from_yaml("schema: roofline.machine-spec/1\nname: sheet\ncores: 4\nclock_ghz: 3\npeak: " +
                                  peaks + "\nbandwidth: " + bandwidths + "\n" + more);
}

ComparisonInput spec_input(const std::string& a, const std::string& b, const SpecComparison& c) {
    ComparisonInput input;
    input.label_a = a;
    input.label_b = b;
    input.spec = c;
    return input;
}

const SpecMatch& find(const SpecComparison& c, const std::string& what, int threads) {
    for (const auto& m : c.matches)
        if (m.what == what && m.spec_threads == threads) return m;
    throw std::runtime_error("no match for " + what);
}

} // namespace

TEST(SpecComparison, SheetFiguresMatchTheBestMeasuredRoofAtAllThreads) {
    const auto c = compare_with_spec(measured_model(), sheet("{dp: 150}", "{DRAM: 25}"), false);
    EXPECT_FALSE(c.spec_is_a);
    EXPECT_EQ(c.sheet_cores, 4);
    EXPECT_EQ(c.machine_threads, 2);
    ASSERT_EQ(c.matches.size(), 2u);
    const auto& dp = find(c, "dp", 4);
    EXPECT_TRUE(dp.compute && dp.sheet_all);
    EXPECT_EQ(dp.measured_key, "dp avx2 fma 2t");  // the best mix, at the most threads measured
    EXPECT_EQ(dp.measured_threads, 2);
    EXPECT_DOUBLE_EQ(dp.ratio, 100.0 / 150);
    EXPECT_EQ(dp.verdict, SpecVerdict::below);
    EXPECT_EQ(dp.unit, "GFLOP/s");
    const auto& dram = find(c, "DRAM", 4);
    EXPECT_FALSE(dram.compute);
    EXPECT_EQ(dram.measured_key, "DRAM load 2t");  // any pattern: the best
    EXPECT_DOUBLE_EQ(dram.ratio, 20.0 / 25);
    EXPECT_EQ(c.matched(), 2u);
    EXPECT_EQ(c.above(), 0u);
    // What the model measured that the sheet lacks: sp, L1 and L2.
    std::vector<std::string> silent;
    for (const auto& n : c.not_in_sheet) silent.push_back(n.what);
    EXPECT_EQ(silent, (std::vector<std::string>{"sp", "L1", "L2"}));
    EXPECT_EQ(c.not_in_sheet[0].measured_key, "sp avx2 fma 2t");
    EXPECT_EQ(c.not_in_sheet[2].measured_key, "L2 load 1t");
}

TEST(SpecComparison, OtherThreadCountsMatchExactlyOrSayWhyNot) {
    // L2 {1: 95, 4: 300}: 1 thread matches the 1-thread roof; 4 threads the most L2 has (1),
    // said as fewer than the model's 2. DRAM {3: 24}: the model has no 3-thread DRAM roof.
    const auto c = compare_with_spec(measured_model(), sheet("{dp: 150}", "{L2: {1: 95, 4: 300}, DRAM: {3: 24, 4: 25}}"), true);
    const auto& l2_1 = find(c, "L2", 1);
    EXPECT_FALSE(l2_1.sheet_all);
    EXPECT_EQ(l2_1.measured_key, "L2 load 1t");
    EXPECT_EQ(l2_1.verdict, SpecVerdict::below);
    const auto& l2_4 = find(c, "L2", 4);
    EXPECT_TRUE(l2_4.sheet_all);
    EXPECT_EQ(l2_4.measured_threads, 1);
    EXPECT_EQ(l2_4.model_threads, 2);
    const auto& dram3 = find(c, "DRAM", 3);
    EXPECT_EQ(dram3.verdict, SpecVerdict::unmatched);
    EXPECT_NE(dram3.why_unmatched.find("no DRAM memory roof at 3 threads"), std::string::npos) << dram3.why_unmatched;
    EXPECT_FALSE(dram3.measured);
    EXPECT_EQ(find(c, "DRAM", 4).verdict, SpecVerdict::below);
    const std::string text = render_comparison(spec_input("sheet", "model", c), false);
    EXPECT_NE(text.find("1 of 2 (the most measured)"), std::string::npos) << text;
    EXPECT_NE(text.find("A is a spec sheet"), std::string::npos) << text;
}

TEST(SpecComparison, APrecisionOrLevelTheModelLacksIsNotMatched) {
    const auto c = compare_with_spec(measured_model(), sheet("{dp: 150, IOP: 300}", "{L3: 50, DRAM: 25}"), false);
    const auto& iop = find(c, "IOP", 4);
    EXPECT_EQ(iop.verdict, SpecVerdict::unmatched);
    EXPECT_EQ(iop.unit, "GIOP/s");
    EXPECT_NE(iop.why_unmatched.find("no IOP roof: a precision it did not measure"), std::string::npos);
    const auto& l3 = find(c, "L3", 4);
    EXPECT_EQ(l3.verdict, SpecVerdict::unmatched);
    EXPECT_NE(l3.why_unmatched.find("a level it did not measure"), std::string::npos);
    EXPECT_EQ(c.matched(), 2u);
}

TEST(SpecComparison, AMeasuredRoofAboveTheSheetBeyondItsSpreadIsCalledOut) {
    // No spread recorded: 5% above the figure is still at it; more is above.
    const auto at = compare_with_spec(measured_model(), sheet("{dp: 97}", "{DRAM: 19.5}"), false);
    EXPECT_EQ(find(at, "dp", 4).verdict, SpecVerdict::at);
    EXPECT_DOUBLE_EQ(find(at, "dp", 4).threshold, kUnknownSpread);
    const auto above = compare_with_spec(measured_model(), sheet("{dp: 90}", "{DRAM: 10}"), false);
    EXPECT_EQ(find(above, "dp", 4).verdict, SpecVerdict::above);
    EXPECT_EQ(find(above, "DRAM", 4).verdict, SpecVerdict::above);
    EXPECT_EQ(above.above(), 2u);

    const ComparisonInput input = spec_input("model", "sheet", above);
    const std::string text = render_comparison(input, false);
    EXPECT_NE(text.find("ABOVE THE SHEET'S (+11%"), std::string::npos) << text;
    EXPECT_NE(text.find("the sheet or the measurement is wrong"), std::string::npos) << text;
    EXPECT_NE(text.find("2 above it"), std::string::npos) << text;
    const auto j = nlohmann::json::parse(render_comparison(input, true));
    const auto& s = j.at("spec_comparison");
    EXPECT_EQ(s.at("spec_side"), "B");
    EXPECT_EQ(s.at("above"), 2);
    EXPECT_EQ(s.at("figures").at(0).at("verdict"), "above");
    EXPECT_EQ(s.at("figures").at(0).at("measured_roof"), "dp avx2 fma 2t");
    EXPECT_DOUBLE_EQ(s.at("figures").at(0).at("ratio").get<double>(), 100.0 / 90);
    EXPECT_EQ(j.at("compared").at("judged"), 2);
    EXPECT_TRUE(nothing_compared_text(input).empty());
}

TEST(SpecComparison, CeilingsAreNotComparedAndAThreadCeilingIsNotABandwidth) {
    const auto c = compare_with_spec(
        measured_model(), sheet("{dp: 150}", "{DRAM: 25}",
                          "ceilings:\n  compute:\n    - {name: no FMA, category: fma, value: 75}\n"
                          "  bandwidth:\n    - {name: one thread, level: DRAM, category: threads, value: 8}\n"),
        false);
    EXPECT_EQ(c.ceilings_not_compared, 2);
    ASSERT_EQ(c.matches.size(), 2u);  // the dp peak and the DRAM bandwidth, not the ceilings
    for (const auto& m : c.matches) EXPECT_EQ(m.spec_threads, 4);
}

TEST(SpecComparison, NothingMatchedIsNothingCompared) {
    MachineModel memory_only;
    memory_only.cpu.threads = 2;
    add_memory(memory_only, "L1", "load", 2, 400);
    const auto c = compare_with_spec(memory_only, sheet("{dp: 150}", "{DRAM: 25}"), false);
    EXPECT_EQ(c.matched(), 0u);
    const ComparisonInput input = spec_input("model", "sheet", c);
    const std::string none = nothing_compared_text(input);
    EXPECT_NE(none.find("no figure of the spec sheet (2 of them) has a measured roof"), std::string::npos) << none;
    EXPECT_NE(render_comparison(input, false).find("Nothing compared"), std::string::npos);
}
