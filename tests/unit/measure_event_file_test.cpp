#include "io/install_layout.hpp"
#include "measure/event_file.hpp"

#include <gtest/gtest.h>

using namespace roofline::measure;

namespace {

const char* kIntel = R"(# comment
name test_intel
match vendor=GenuineIntel families=6 models=106,143
description test
event sd = FP_ARITH:SCALAR_DOUBLE
event pd256 = FP_ARITH:256B_PACKED_DOUBLE
event pd512 = FP_ARITH:512B_PACKED_DOUBLE
event llc = LONGEST_LAT_CACHE:MISS   # trailing comment
metric flops_dp = sd + 4*pd256 + 8*pd512
metric flops_dp = sd + 4*pd256
metric flops = flops_dp
metric bytes_DRAM = 64 * llc
)";

} // namespace

TEST(MeasureEventFile, Parses) {
    const auto set = parse_event_file(kIntel, "intel.txt");
    EXPECT_EQ(set.name, "test_intel");
    EXPECT_EQ(set.vendor, "GenuineIntel");
    EXPECT_EQ(set.families, std::vector<int>{6});
    EXPECT_EQ(set.models, (std::vector<int>{106, 143}));
    ASSERT_EQ(set.events.size(), 4u);
    EXPECT_EQ(set.events[3].pfm_name, "LONGEST_LAT_CACHE:MISS");
    EXPECT_EQ(set.metrics.size(), 4u);
}

TEST(MeasureEventFile, AlternativesAndMissingEvents) {
    const auto set = parse_event_file(kIntel);
    // All events opened: the first alternative.
    auto m = evaluate_metrics(set, {{"sd", 1}, {"pd256", 2}, {"pd512", 3}, {"llc", 10}});
    EXPECT_DOUBLE_EQ(m["flops_dp"], 1 + 8 + 24);
    EXPECT_DOUBLE_EQ(m["flops"], 33);
    EXPECT_DOUBLE_EQ(m["bytes_DRAM"], 640);
    // No 512-bit event (a client CPU): the second alternative; no LLC event: no bytes.
    m = evaluate_metrics(set, {{"sd", 1}, {"pd256", 2}});
    EXPECT_DOUBLE_EQ(m["flops_dp"], 9);
    EXPECT_EQ(m.count("bytes_DRAM"), 0u);
}

TEST(MeasureEventFile, Errors) {
    EXPECT_THROW(parse_event_file("event a = X\n"), FormulaError);  // no name
    EXPECT_THROW(parse_event_file("name x\nbogus line\n"), FormulaError);
    EXPECT_THROW(parse_event_file("name x\nevent a = X\nevent a = Y\n"), FormulaError);
    EXPECT_THROW(parse_event_file("name x\nmetric m = undefined_event\n"), FormulaError);
    EXPECT_THROW(parse_event_file("name x\nevent a = X\nmetric m = a +\n"), FormulaError);
    // Found by fuzzing: a family beyond an int was silently truncated.
    EXPECT_THROW(parse_event_file("name x\nmatch vendor=A families=4294967321\n"), FormulaError);
    EXPECT_THROW(parse_event_file("name x\nmatch vendor=A models=-1\n"), FormulaError);
    try {
        parse_event_file("name x\n\nmatch vendor=A families=six\n", "f.txt");
        FAIL();
    } catch (const FormulaError& e) {
        EXPECT_NE(std::string(e.what()).find("f.txt:3"), std::string::npos) << e.what();
    }
}

TEST(MeasureEventFile, SelectionPrefersSpecific) {
    std::vector<EventSet> sets = {parse_event_file("name generic\nmatch vendor=* families=*\n"),
                                  parse_event_file("name zen\nmatch vendor=AuthenticAMD families=23,25\n")};
    EXPECT_EQ(select_event_set(sets, {"AuthenticAMD", 25, 1})->name, "zen");
    EXPECT_EQ(select_event_set(sets, {"GenuineIntel", 6, 106})->name, "generic");
    sets.erase(sets.begin());
    EXPECT_FALSE(select_event_set(sets, {"GenuineIntel", 6, 106}).has_value());
}

TEST(MeasureEventFile, ShippedFilesParse) {
    const auto sets = load_event_sets(roofline::events_dir(""));
    ASSERT_GE(sets.size(), 3u);
    EXPECT_TRUE(select_event_set(sets, {"AuthenticAMD", 25, 1}).has_value());
    EXPECT_EQ(select_event_set(sets, {"GenuineIntel", 6, 106})->name, "intel_core");
    EXPECT_EQ(select_event_set(sets, {"SomethingElse", 1, 1})->name, "generic");
}
