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
    const auto sets = load_event_sets(ROOFLINE_TEST_EVENTS_DIR);
    ASSERT_GE(sets.size(), 3u);
    EXPECT_TRUE(select_event_set(sets, {"AuthenticAMD", 25, 1}).has_value());
    EXPECT_EQ(select_event_set(sets, {"GenuineIntel", 6, 106})->name, "intel_core");
    EXPECT_EQ(select_event_set(sets, {"SomethingElse", 1, 1})->name, "generic");
}

// Data-fabric events differ between Zen generations of one family: an event says which
// CPUs have it ("when"), and a metric's alternatives fall back to what opened.
TEST(MeasureEventFile, EventsOnlySomeModelsHave) {
    const auto set = parse_event_file(R"(name zen
match vendor=AuthenticAMD families=23,25
event llc = perf::CACHE-MISSES
event df3 = sysfs:amd_df/event=0x07,umask=0x38/ when families=23; families=25 models=0x00-0x0f,0x20-0x5f
event df4 = sysfs:amd_df/event=0x1f,umask=0x7fe/ when families=25 models=0x10-0x1f,0x60-0xaf
metric bytes_DRAM = 64 * df3
metric bytes_DRAM = 64 * df4
metric bytes_DRAM = 64 * llc
)",
                                      "zen.txt");
    ASSERT_EQ(set.events.size(), 3u);
    EXPECT_EQ(set.events[1].pfm_name, "sysfs:amd_df/event=0x07,umask=0x38/");
    const CpuIdentity zen2{"AuthenticAMD", 23, 0x31}, milan{"AuthenticAMD", 25, 0x01},
        genoa{"AuthenticAMD", 25, 0x11}, phoenix{"AuthenticAMD", 25, 0x74}, unknown{"AuthenticAMD", 25, 0xb0};
    EXPECT_TRUE(applies(set.events[0], genoa));
    EXPECT_TRUE(applies(set.events[1], zen2));
    EXPECT_TRUE(applies(set.events[1], milan));
    EXPECT_FALSE(applies(set.events[1], genoa));
    EXPECT_TRUE(applies(set.events[2], phoenix));
    EXPECT_FALSE(applies(set.events[2], milan));
    EXPECT_FALSE(applies(set.events[1], unknown));
    EXPECT_FALSE(applies(set.events[2], unknown));

    std::map<std::string, std::string> used;
    auto m = evaluate_metrics(set, {{"llc", 10}, {"df4", 100}}, &used);
    EXPECT_DOUBLE_EQ(m.at("bytes_DRAM"), 6400);
    EXPECT_EQ(used.at("bytes_DRAM"), "64 * df4");
    m = evaluate_metrics(set, {{"llc", 10}}, &used);
    EXPECT_DOUBLE_EQ(m.at("bytes_DRAM"), 640);
    EXPECT_EQ(used.at("bytes_DRAM"), "64 * llc");

    EXPECT_THROW(parse_event_file("name x\nevent a = b when cores=3\n"), FormulaError);
    EXPECT_THROW(parse_event_file("name x\nevent a = b when families=25;; models=1\n"), FormulaError);
    EXPECT_THROW(parse_event_file("name x\nevent a = b when models=0x20-0x10\n"), FormulaError);
}

// The shipped AMD and Intel files name the memory-controller events for the right CPUs.
TEST(MeasureEventFile, ShippedDramEventsMatchTheirGenerations) {
    const auto sets = load_event_sets(ROOFLINE_TEST_EVENTS_DIR);
    auto count = [&](const CpuIdentity& cpu, const std::string& prefix) {
        const auto set = select_event_set(sets, cpu);
        int n = 0;
        for (const auto& e : set->events) n += applies(e, cpu) && e.alias.rfind(prefix, 0) == 0;
        return n;
    };
    EXPECT_EQ(count({"AuthenticAMD", 25, 0x01}, "dram_ch"), 8);  // Milan: 8 channels
    EXPECT_EQ(count({"AuthenticAMD", 25, 0x01}, "dram_rd"), 0);
    EXPECT_EQ(count({"AuthenticAMD", 25, 0x11}, "dram_rd"), 12);  // Genoa: 12 coherent stations
    EXPECT_EQ(count({"AuthenticAMD", 25, 0x11}, "dram_ch"), 0);
    EXPECT_EQ(count({"GenuineIntel", 6, 143}, "imc_"), 4);
}
