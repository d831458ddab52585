// A point whose stores were REP STOS/MOVS (memset): the cache simulation read each line they
// missed before writing it, which fast-string stores may skip. Said as a note and, where a level
// reads above its roof, as the first cause; no figure changed.
#include "core/data_movement.hpp"
#include "core/rep_string_stores.hpp"
#include "core/roofline.hpp"
#include "render/advice_text.hpp"
#include "render/measure_tables.hpp"
#include "render/report.hpp"

#include <gtest/gtest.h>

namespace {

using namespace roofline;

// What the tool counted for 4 memsets of a 16 MiB buffer on a 1 MiB L2 / 32 MiB L3: every line
// read from L3 into L2 (then from L2 into L1) before being written; its first pass from DRAM.
Point memset_l3() {
    Point p;
    p.name = "memset_l3";
    p.work = 0;
    p.seconds = 0.0024;
    p.bytes = {{"L1", 67.1e6}, {"L2", 134.2e6}, {"L3", 117.4e6}, {"DRAM", 33.6e6}};
    p.details[kCacheRepStringStoredBytes] = 67.1e6;
    p.details[rep_string_fill_key("L2")] = 67.1e6;
    p.details[rep_string_fill_key("L3")] = 67.1e6;
    p.details[rep_string_fill_key("DRAM")] = 16.8e6;
    return p;
}

TEST(RepStringStores, AMemsetsFillsAreSaidPerLevelNearestTheCoreFirst) {
    const auto f = rep_string_fill(memset_l3());
    ASSERT_TRUE(f);
    EXPECT_DOUBLE_EQ(f->stored_bytes, 67.1e6);
    ASSERT_EQ(f->levels.size(), 3u);
    EXPECT_EQ(f->levels[0].level, "L2");
    EXPECT_EQ(f->levels[1].level, "L3");
    EXPECT_EQ(f->levels[2].level, "DRAM");
    EXPECT_DOUBLE_EQ(f->levels[1].level_bytes, 117.4e6);
    const auto text = rep_string_fill_text(*f);
    EXPECT_NE(text.find("67.1 MB of its stores were REP STOS/MOVS string instructions"), std::string::npos) << text;
    EXPECT_NE(text.find("may write whole lines without that read"), std::string::npos) << text;
    EXPECT_NE(text.find("too many by up to 67.1 MB at L2 (of 134 MB), 67.1 MB at L3 (of 117 MB), 16.8 MB at DRAM "
                        "(of 33.6 MB)"),
              std::string::npos)
        << text;
}

TEST(RepStringStores, SmallOrMinorFillsAndPlainStoresAreNotSaid) {
    Point plain = memset_l3();  // a plain store loop: the tool counts no string-store fills
    for (const char* level : {"L2", "L3", "DRAM"}) plain.details[rep_string_fill_key(level)] = 0;
    plain.details[kCacheRepStringStoredBytes] = 0;
    EXPECT_FALSE(rep_string_fill(plain));
    Point older = memset_l3();  // an older tool: no such details at all
    for (const char* level : {"L2", "L3", "DRAM"}) older.details.erase(rep_string_fill_key(level));
    EXPECT_FALSE(rep_string_fill(older));
    Point small = memset_l3();  // under 1 MiB: a few small memsets
    for (const char* level : {"L2", "L3", "DRAM"}) small.details[rep_string_fill_key(level)] = 0.9 * 1024 * 1024;
    EXPECT_FALSE(rep_string_fill(small));
    Point minor = memset_l3();  // under 5% of the level's bytes
    minor.bytes = {{"L2", 1e9}, {"L3", 1e9}, {"DRAM", 1e9}};
    for (const char* level : {"L2", "L3", "DRAM"}) minor.details[rep_string_fill_key(level)] = 0.04e9;
    minor.details[rep_string_fill_key("DRAM")] = 0.06e9;  // but DRAM's is 6%: said alone
    const auto f = rep_string_fill(minor);
    ASSERT_TRUE(f);
    ASSERT_EQ(f->levels.size(), 1u);
    EXPECT_EQ(f->levels[0].level, "DRAM");
}

// A memset's L3 bandwidth read above the L3 roof (131% on a Zen 4): its fills are named first.
TEST(RepStringStores, ALevelAboveItsRoofNamesTheFillsFirst) {
    Roofline r;
    r.label = "Test CPU";
    r.precision = "dp";
    r.threads = 1;
    r.compute = {"DP peak", "", 100};
    r.bandwidth = {{"L2 load", "L2", 200, 0.02}, {"L3 load", "L3", 40, 0.03}, {"DRAM copy+WA", "DRAM", 30, 0.04}};
    const Point p = memset_l3();  // 117.4 MB in 2.4 ms at L3: 48.9 GB/s on a 40 GB/s roof
    const auto m = data_movement(r, p, View::carm);
    ASSERT_TRUE(m);
    ASSERT_TRUE(m->rep_string_fill);
    const std::vector<MeasuredRow> rows = {{p, std::nullopt, m}};
    const auto table = render_measured_points(rows, true);
    EXPECT_NE(table.find("above L3 load's 40.0 GB/s (up to 67.1 MB of its 117 MB at L3 are write-allocate reads for "
                         "REP STOS/MOVS stores (memset, memcpy), which fast-string stores may skip; or time that missed"),
              std::string::npos)
        << table;
    const auto report = render_report({}, r, ReportFormat::text, View::carm, {}, {}, {{p.name, *m}});
    EXPECT_NE(report.find("ABOVE the roof, which cannot be (up to 67.1 MB of its 117 MB at L3"), std::string::npos)
        << report;
    EXPECT_NE(report.find("Note: 67.1 MB of its stores were REP STOS/MOVS"), std::string::npos) << report;
    // No fills: the usual causes alone.
    Point plain = p;
    plain.details.erase(rep_string_fill_key("L3"));
    EXPECT_EQ(above_roof_level_causes(*data_movement(r, plain, View::carm), "L3").find("REP"), std::string::npos);
}

// A point with FLOPs bound at a level whose bytes are mostly string-store fills: the cause comes first.
TEST(RepStringStores, AnAboveRoofPointWithFlopsNamesTheFillsFirst) {
    Roofline r;
    r.label = "Test CPU";
    r.precision = "dp";
    r.threads = 1;
    r.compute = {"DP peak", "", 100};
    r.bandwidth = {{"DRAM copy+WA", "DRAM", 20, 0.04}};
    Point p;
    p.name = "init_then_sum";
    p.work = 24e9;
    p.seconds = 1;
    p.threads = 1;
    p.bytes = {{"DRAM", 24e9}};  // I = 1: DRAM allows 20, the point claims 24
    p.details[rep_string_fill_key("DRAM")] = 8e9;
    auto a = analyze(r, p, View::orm);
    ASSERT_TRUE(a.above_roof);
    ASSERT_FALSE(a.above_roof->causes.empty());
    EXPECT_EQ(a.above_roof->causes.front(), AboveRoof::Cause::rep_string_fill);
    EXPECT_NE(above_roof_text(*a.above_roof).find("likely its bytes at the binding level include write-allocate "
                                                  "reads the cache simulation made for REP STOS/MOVS stores (memset, "
                                                  "memcpy), enough that without them it is not above the roof"),
              std::string::npos)
        << above_roof_text(*a.above_roof);
    p.details[rep_string_fill_key("DRAM")] = 0.5e9;  // 2%: not the cause
    a = analyze(r, p, View::orm);
    for (auto cause : a.above_roof->causes) EXPECT_NE(cause, AboveRoof::Cause::rep_string_fill);
    // 6% of its bytes, over the note's 5%, but without them it still reads at 113% of the roof (and
    // the roof's spread is 4%): they cannot be why it is above; it was named first, "largely" its bytes.
    p.details[rep_string_fill_key("DRAM")] = 1.44e9;
    a = analyze(r, p, View::orm);
    ASSERT_TRUE(a.above_roof);
    for (auto cause : a.above_roof->causes) EXPECT_NE(cause, AboveRoof::Cause::rep_string_fill);
    // 20%: without them 96%, under the roof: named first
    p.details[rep_string_fill_key("DRAM")] = 4.8e9;
    a = analyze(r, p, View::orm);
    ASSERT_TRUE(a.above_roof);
    EXPECT_EQ(a.above_roof->causes.front(), AboveRoof::Cause::rep_string_fill);
}

} // namespace
