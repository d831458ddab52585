// A point whose data fills most of the simulated last-level cache and is re-read there: its DRAM
// bytes are a lower bound, said (core/llc_occupancy), in report's text and JSON (render/report);
// and the Valgrind tool's count of distinct lines behind it (tools/vgtool/rl_distinct.c).
#include "core/data_movement.hpp"
#include "core/llc_occupancy.hpp"
#include "core/roofline.hpp"
#include "measure/merge.hpp"
#include "measure/protocol_json.hpp"
#include "render/report.hpp"
#include "rl_distinct.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <memory>

using namespace roofline;

namespace {

constexpr double MiB = 1024.0 * 1024.0;

// A Jacobi sweep over `touched` bytes, `sweeps` times, on a 32 MiB L3: the first sweep reads it
// from DRAM, the others from L3 when it fits (LRU), from DRAM again when it does not.
Point sweeps(double touched, int sweeps, bool fits) {
    Point p;
    p.name = "jacobi";
    p.work = 1e8;
    p.seconds = 0.05;
    const double dram = fits ? touched : touched * sweeps;
    const double l3 = fits ? touched * (sweeps - 1) : 0;
    p.bytes = {{"L1", 1e9}, {"L2", touched * sweeps}, {"L3", l3}, {"DRAM", dram}};
    p.details = {{kCacheTouchedBytes, touched},      {kCacheLlcBytes, 32 * MiB}, {kCacheLlcLevel, 3},
                 {"cache_DRAM_read_bytes", dram}, {"cache_L3_read_bytes", l3}};
    return p;
}

TEST(LlcOccupancy, WellUnderTheLlcHasNoNote) {
    EXPECT_FALSE(llc_near_full(sweeps(10 * MiB, 20, true)));  // 31%
    EXPECT_FALSE(llc_near_full(sweeps(15.9 * MiB, 20, true)));  // just under half
}

TEST(LlcOccupancy, NearTheLlcAndReReadHasTheNote) {
    const auto n = llc_near_full(sweeps(30.5 * MiB, 20, true));
    ASSERT_TRUE(n);
    EXPECT_NEAR(n->share, 30.5 / 32, 1e-9);
    EXPECT_TRUE(n->touched_counted);
    EXPECT_EQ(n->llc_level, 3);
    EXPECT_EQ(llc_near_full_text(*n),
              "the data it touched (about 30.5 MiB) fills 95% of the simulated 32 MiB L3; a real L3 (shared, not "
              "LRU) spills some of it: DRAM bytes here are a lower bound");
    EXPECT_TRUE(llc_near_full(sweeps(16 * MiB, 20, true)));  // half: the threshold itself
    const auto over = llc_near_full(sweeps(40 * MiB, 20, true));  // a little over, still re-read from L3 under LRU
    ASSERT_TRUE(over);
    EXPECT_NE(llc_near_full_text(*over).find("(about 40 MiB) is 125% of the simulated 32 MiB L3"), std::string::npos);
}

TEST(LlcOccupancy, WellOverTheLlcHasNoNote) {
    EXPECT_FALSE(llc_near_full(sweeps(88 * MiB, 3, false)));  // 2.75x: LRU streams it from DRAM, as hardware does
    EXPECT_FALSE(llc_near_full(sweeps(49 * MiB, 20, true)));  // over 1.5x, even re-read
}

TEST(LlcOccupancy, DataReadOnceHasNoNote) {
    // 24 MiB streamed once: every L3 read is a DRAM read, nothing for a real L3 to lose.
    Point p = sweeps(24 * MiB, 1, true);
    EXPECT_FALSE(llc_near_full(p));
    // Read back once from L3 only (ratio 1 < 2): no note either.
    p.details["cache_L3_read_bytes"] = 24 * MiB;
    EXPECT_FALSE(llc_near_full(p));
}

// A region opened once per slab of a large array (3 slabs of 13.3 MiB, 40 MiB in all, on a 32 MiB
// L3), each slab re-read within its opening: the union, 125%, said its DRAM bytes were a lower bound,
// though no slab was re-read from another opening. Its working set (one opening's, 42%) is judged.
TEST(LlcOccupancy, ARegionIsJudgedAtItsWorkingSetNotTheUnionOfItsOpenings) {
    Point slabs = sweeps(40 * MiB, 20, true);
    ASSERT_TRUE(llc_near_full(slabs));  // the union alone (an older tool): the note
    slabs.details[kCacheWorkingSetBytes] = 40 * MiB / 3;
    EXPECT_FALSE(llc_near_full(slabs));
    // Slabs of 24 MiB each (75%): re-read within an opening, near the L3: said, with the union.
    Point big = sweeps(72 * MiB, 20, true);
    big.details[kCacheWorkingSetBytes] = 24 * MiB;
    const auto n = llc_near_full(big);
    ASSERT_TRUE(n);
    EXPECT_NEAR(n->share, 0.75, 1e-9);
    EXPECT_EQ(llc_near_full_text(*n),
              "the data it touched (about 24 MiB at once: an opening's, with the lines of earlier openings it touched "
              "again; 72 MiB over all its openings) fills 75% of the simulated 32 MiB L3; a real L3 (shared, not LRU) "
              "spills some of it: DRAM bytes here are a lower bound");
    // One opening (or every opening on the same grid): the two figures agree, said as before.
    Point grid = sweeps(30.5 * MiB, 20, true);
    grid.details[kCacheWorkingSetBytes] = 30.9 * MiB;  // the largest of several estimates: a little over
    const auto g = llc_near_full(grid);
    ASSERT_TRUE(g);
    EXPECT_EQ(g->touched_all_openings_bytes, 0);
    EXPECT_NE(llc_near_full_text(*g).find("the data it touched (about 30.9 MiB) fills 97%"), std::string::npos)
        << llc_near_full_text(*g);
}

// The tool's working set reaches the point's details and, for a loop of a marker region, stands for
// the region's data.
TEST(LlcOccupancy, ToolOutputGivesTheWorkingSet) {
    using namespace roofline::measure;
    const auto r = parse_vgtool_json(R"J({"schema": "roofline.vgtool/1", "regions": [
        {"name": "(program)", "calls": 1, "threads": 1, "cache_touched": 62914560, "cache_working_set": 62914560},
        {"name": "step", "calls": 3, "threads": 1, "cache_touched": 62914560, "cache_working_set": 20971520},
        {"name": "old", "calls": 3, "threads": 1, "cache_touched": 62914560}],
        "functions": [],
        "cache_model": {"cores": 1, "placement": "round-robin", "threads": [], "levels": [
          {"name": "L1", "size": 49152, "ways": 12, "line": 64, "shared_by": 1},
          {"name": "L3", "size": 33554432, "ways": 16, "line": 64, "shared_by": 1}]}})J",
                                     "v.json");
    ASSERT_EQ(r.regions.size(), 3u);
    EXPECT_DOUBLE_EQ(r.regions[1].cache_working_set_bytes, 20971520);
    EXPECT_DOUBLE_EQ(r.regions[2].cache_working_set_bytes, 0);  // an older tool: not said
    Point step, old;
    apply_counts(step, r.regions[1]);
    apply_counts(old, r.regions[2]);
    EXPECT_DOUBLE_EQ(step.details.at(kCacheWorkingSetBytes), 20971520);
    EXPECT_DOUBLE_EQ(step.details.at(kCacheTouchedBytes), 62914560);
    EXPECT_EQ(old.details.count(kCacheWorkingSetBytes), 0u);
}

TEST(LlcOccupancy, WithoutTheCountOfLinesDramReadsAreTheLowerBound) {
    // A function's point: no distinct-line count, its DRAM reads (each line's first) stand for it.
    Point p = sweeps(30 * MiB, 20, true);
    p.details.erase(kCacheTouchedBytes);
    const auto n = llc_near_full(p);
    ASSERT_TRUE(n);
    EXPECT_FALSE(n->touched_counted);
    EXPECT_NEAR(n->touched_bytes, 30 * MiB, 1);
    EXPECT_NE(llc_near_full_text(*n).find("(at least 30 MiB)"), std::string::npos);
    // Its data warmed before it (no DRAM reads): nothing to say how much it touched.
    p.details["cache_DRAM_read_bytes"] = 0;
    EXPECT_FALSE(llc_near_full(p));
}

TEST(LlcOccupancy, NoteNeedsTheCacheSimulation) {
    Point p = sweeps(30 * MiB, 20, true);
    p.details.erase(kCacheLlcBytes);  // perf engine, --cache-sim off, a hand-written file
    EXPECT_FALSE(llc_near_full(p));
    p = sweeps(30 * MiB, 20, true);
    p.details[kCacheLlcLevel] = 1;  // an L1 alone: nothing above it re-reads
    EXPECT_FALSE(llc_near_full(p));
}

TEST(LlcOccupancy, ReportSaysItAndChangesNoFigure) {
    Roofline r;
    r.label = "Test CPU";
    r.precision = "dp";
    r.threads = 1;
    r.compute = {"DP peak", "", 100};
    r.bandwidth = {{"L1 load", "L1", 400, 0.02}, {"L3 copy", "L3", 150, 0.02}, {"DRAM copy+WA", "DRAM", 50, 0.04}};
    const Point near = sweeps(30.5 * MiB, 20, true), under = sweeps(10 * MiB, 20, true);
    const auto a = analyze(r, near, View::carm);
    Point plain = near;
    for (const char* key : {kCacheTouchedBytes, kCacheLlcBytes, kCacheLlcLevel}) plain.details.erase(key);
    const auto b = analyze(r, plain, View::carm);
    EXPECT_EQ(a.attainable, b.attainable);
    EXPECT_EQ(a.efficiency, b.efficiency);
    EXPECT_EQ(a.binding_level, b.binding_level);
    const std::string text = render_report({a, analyze(r, under, View::carm)}, r, ReportFormat::text);
    EXPECT_NE(text.find("note             the data it touched (about 30.5 MiB) fills 95% of the simulated 32 MiB L3"),
              std::string::npos)
        << text;
    EXPECT_EQ(text.find("about 10 MiB"), std::string::npos);
    const auto j = nlohmann::json::parse(render_report({a, analyze(r, under, View::carm)}, r, ReportFormat::json));
    EXPECT_EQ(j["points"][0]["dram_lower_bound"]["llc_level"], "L3");
    EXPECT_NEAR(j["points"][0]["dram_lower_bound"]["share"].get<double>(), 30.5 / 32, 1e-9);
    EXPECT_TRUE(j["points"][1]["dram_lower_bound"].is_null());
}

// A loop's point: no distinct-line count of its own (the tool counts per marker region and for the
// program), its data read before it (few DRAM reads), re-read from L3. The program's count stands
// in, said as the program's, only when the loop's own L3 reads show it re-reads a good part of it.
Point loop(double program_touched, double l3_reads, double dram_reads) {
    Point p = sweeps(30 * MiB, 20, true);
    p.name = "main: loop at jacobi.c:12-16";
    p.details.erase(kCacheTouchedBytes);
    p.details[kCacheEnclosingTouchedBytes] = program_touched;
    p.details["cache_L3_read_bytes"] = l3_reads;
    p.details["cache_DRAM_read_bytes"] = dram_reads;
    return p;
}

TEST(LlcOccupancy, LoopUsesTheProgramsDataWhenItReReads) {
    const auto n = llc_near_full(loop(30 * MiB, 570 * MiB, 0.5 * MiB));
    ASSERT_TRUE(n);
    EXPECT_EQ(n->touched_from, TouchedFrom::program);
    EXPECT_FALSE(n->touched_counted);
    EXPECT_NEAR(n->share, 30.0 / 32, 1e-9);
    EXPECT_EQ(llc_near_full_text(*n),
              "the program touched about 30 MiB, which fills 94% of the simulated 32 MiB L3, and it re-reads from the "
              "L3 (570 MiB of L3 reads, 1140x its DRAM reads; its own data is not counted, only the whole "
              "program's); a real L3 (shared, not LRU) spills some of it: DRAM bytes here are a lower bound");
    // A loop of a marker region: the region's count, named so.
    Point in_region = loop(30 * MiB, 570 * MiB, 0);
    in_region.details[kCacheEnclosingRegion] = 1;
    const auto r = llc_near_full(in_region);
    ASSERT_TRUE(r);
    EXPECT_EQ(r->touched_from, TouchedFrom::region);
    EXPECT_NE(llc_near_full_text(*r).find("the marker region touched about 30 MiB, which fills 94% of the simulated "
                                          "32 MiB L3, and it re-reads from the L3 (570 MiB of L3 reads, with no DRAM "
                                          "reads;"),
              std::string::npos)
        << llc_near_full_text(*r);
}

TEST(LlcOccupancy, LoopWithoutReReadsOrWithFewL3ReadsHasNoNote) {
    EXPECT_FALSE(llc_near_full(loop(30 * MiB, 8 * MiB, 0.1 * MiB)));  // 8 MiB read from L3: under half of it
    EXPECT_FALSE(llc_near_full(loop(30 * MiB, 40 * MiB, 30 * MiB)));  // L3 reads 1.3x DRAM's: a stream
    EXPECT_FALSE(llc_near_full(loop(10 * MiB, 200 * MiB, 0)));        // the program's 31%: room to spare
    EXPECT_FALSE(llc_near_full(loop(88 * MiB, 200 * MiB, 0)));        // 2.75x: no lower bound
    Point none = loop(30 * MiB, 570 * MiB, 0);
    none.details.erase(kCacheEnclosingTouchedBytes);  // an older tool: nothing to say how much it touched
    EXPECT_FALSE(llc_near_full(none));
    // Its own DRAM reads reach half the L3: they say it (at least), before the program's count.
    const auto own = llc_near_full(loop(30 * MiB, 570 * MiB, 20 * MiB));
    ASSERT_TRUE(own);
    EXPECT_EQ(own->touched_from, TouchedFrom::dram_reads);
    EXPECT_NE(llc_near_full_text(*own).find("the data it touched (at least 20 MiB) fills 62%"), std::string::npos);
}

// Synthetic machine: four L3 instances of 32 MiB, 8 cores each (a 32-core part of four CCXs).
Point on_ccxs(double touched, int threads) {
    Point p = sweeps(touched, 20, true);
    p.threads = threads;
    p.details[kCacheLlcInstances] = 4;
    p.details[kCacheLlcCoresPerInstance] = 8;
    return p;
}

TEST(LlcOccupancy, ThreadsUnderSeveralInstancesHaveTheirCapacity) {
    // One thread: one instance, 30 MiB fills 94% of it, and the note says it is one of four.
    const auto one = llc_near_full(on_ccxs(30 * MiB, 1));
    ASSERT_TRUE(one);
    EXPECT_EQ(one->instances_used, 1);
    EXPECT_NEAR(one->share, 30.0 / 32, 1e-9);
    EXPECT_EQ(llc_near_full_text(*one),
              "the data it touched (about 30 MiB) fills 94% of the simulated 32 MiB L3 (one of 4: its one thread runs "
              "under one); a real L3 (shared, not LRU) spills some of it: DRAM bytes here are a lower bound");
    // 6 threads fit one instance's 8 cores.
    const auto six = llc_near_full(on_ccxs(30 * MiB, 6));
    ASSERT_TRUE(six);
    EXPECT_NE(llc_near_full_text(*six).find("fills 94% of the simulated 32 MiB L3 (one of 4: its 6 threads fit the 8 "
                                            "cores sharing one; spread wider they have more)"),
              std::string::npos)
        << llc_near_full_text(*six);
    // 16 threads need two instances' cores: 30 MiB is 47% of 64 MiB, no note (one instance said 94%).
    EXPECT_FALSE(llc_near_full(on_ccxs(30 * MiB, 16)));
    // 60 MiB on 16 threads: 94% of the two instances.
    const auto two = llc_near_full(on_ccxs(60 * MiB, 16));
    ASSERT_TRUE(two);
    EXPECT_EQ(two->instances_used, 2);
    EXPECT_NEAR(two->capacity_bytes, 64 * MiB, 1);
    EXPECT_NEAR(two->share, 60.0 / 64, 1e-9);
    EXPECT_NE(llc_near_full_text(*two).find("fills 94% of the 2 simulated 32 MiB L3s its 16 threads need (8 cores "
                                            "share one; its threads taken to fill one's cores before the next, so "
                                            "spread wider they have more)"),
              std::string::npos)
        << llc_near_full_text(*two);
    // 9 threads: two instances (8 + 1). 64 threads: all four, no more.
    EXPECT_EQ(llc_near_full(on_ccxs(60 * MiB, 9))->instances_used, 2);
    const auto all = llc_near_full(on_ccxs(120 * MiB, 64));
    ASSERT_TRUE(all);
    EXPECT_EQ(all->instances_used, 4);
    EXPECT_NEAR(all->share, 120.0 / 128, 1e-9);
    // 100 MiB over 4 threads: one instance, 3.1x: LRU itself spills it, no note.
    EXPECT_FALSE(llc_near_full(on_ccxs(100 * MiB, 4)));
    // The machine's instances unknown (an older tool): one instance, as before.
    Point unknown = on_ccxs(30 * MiB, 16);
    unknown.details.erase(kCacheLlcInstances);
    EXPECT_EQ(llc_near_full(unknown)->instances_used, 1);
}

TEST(LlcOccupancy, ToolOutputGivesInstancesAndTheProgramsDataToFunctions) {
    using namespace roofline::measure;
    const auto r = parse_vgtool_json(R"J({"schema": "roofline.vgtool/1", "regions": [
        {"name": "(program)", "calls": 1, "threads": 16, "cache_touched": 62914560}],
        "functions": [{"name": "sweep", "bytes_loaded": 16, "bytes_stored": 8}],
        "cache_model": {"cores": 32, "placement": "round-robin", "threads": [], "levels": [
          {"name": "L1", "size": 49152, "ways": 12, "line": 64, "shared_by": 1},
          {"name": "L2", "size": 1048576, "ways": 16, "line": 64, "shared_by": 1},
          {"name": "L3", "size": 33554432, "ways": 16, "line": 64, "shared_by": 8, "victim": true}]}})J",
                                     "v.json");
    ASSERT_EQ(r.regions.size(), 1u);
    ASSERT_EQ(r.functions.size(), 1u);
    EXPECT_EQ(r.regions[0].cache_llc_instances, 4);
    EXPECT_EQ(r.regions[0].cache_llc_cores_per_instance, 8);
    EXPECT_EQ(r.functions[0].cache_llc_instances, 4);
    EXPECT_DOUBLE_EQ(r.functions[0].cache_enclosing_touched_bytes, 62914560);
    EXPECT_DOUBLE_EQ(r.regions[0].cache_enclosing_touched_bytes, 0);  // a region has its own count
    Point f;
    apply_counts(f, r.functions[0]);
    EXPECT_DOUBLE_EQ(f.details.at(kCacheLlcInstances), 4);
    EXPECT_DOUBLE_EQ(f.details.at(kCacheLlcCoresPerInstance), 8);
    EXPECT_DOUBLE_EQ(f.details.at(kCacheEnclosingTouchedBytes), 62914560);
    EXPECT_EQ(f.details.count(kCacheEnclosingRegion), 0u);
    EXPECT_DOUBLE_EQ(f.details.at(kCacheLlcBytes), 33554432);
}

// A copy of ~20 MiB repeated on a 32 MiB L3: no FLOPs, so report shows it under "Data movement
// only", which says the note too (text, Markdown, JSON).
TEST(LlcOccupancy, DataMovementSaysIt) {
    Roofline r;
    r.label = "Test CPU";
    r.precision = "dp";
    r.threads = 1;
    r.compute = {"DP peak", "", 100};
    r.bandwidth = {{"L1 load", "L1", 400, 0.02}, {"L3 copy", "L3", 150, 0.02}, {"DRAM copy+WA", "DRAM", 50, 0.04}};
    Point copy = sweeps(20 * MiB, 10, true);
    copy.name = "copy";
    copy.work = 0;
    const auto m = data_movement(r, copy, View::carm);
    ASSERT_TRUE(m);
    ASSERT_TRUE(m->llc_near_full);
    EXPECT_NEAR(m->llc_near_full->share, 20.0 / 32, 1e-9);
    Point small = sweeps(4 * MiB, 10, true);
    small.name = "small copy";
    small.work = 0;
    const auto ms = data_movement(r, small, View::carm);
    ASSERT_TRUE(ms);
    EXPECT_FALSE(ms->llc_near_full);
    const std::vector<MovedData> moved = {{"copy", *m}, {"small copy", *ms}};
    const std::string text = render_report({}, r, ReportFormat::text, View::carm, {}, {}, moved);
    EXPECT_NE(text.find("Note: the data it touched (about 20 MiB) fills 62% of the simulated 32 MiB L3; a real L3 "
                        "(shared, not LRU) spills some of it: DRAM bytes here are a lower bound"),
              std::string::npos)
        << text;
    EXPECT_EQ(text.find("about 4 MiB"), std::string::npos) << text;
    const std::string md = render_report({}, r, ReportFormat::markdown, View::carm, {}, {}, moved);
    EXPECT_NE(md.find("Note: the data it touched (about 20 MiB) fills 62% of the simulated 32 MiB L3"), std::string::npos)
        << md;
    const auto j = nlohmann::json::parse(render_report({}, r, ReportFormat::json, View::carm, {}, {}, moved));
    ASSERT_EQ(j["data_movement"].size(), 2u);
    EXPECT_EQ(j["data_movement"][0]["dram_lower_bound"]["touched_from"], "point");
    EXPECT_NEAR(j["data_movement"][0]["dram_lower_bound"]["share"].get<double>(), 20.0 / 32, 1e-9);
    EXPECT_TRUE(j["data_movement"][1]["dram_lower_bound"].is_null());
}

// The sketch's estimate within 5% (its standard error is 1.6%) from a few lines to millions,
// whatever the order and repetition of the lines.
TEST(DistinctLines, EstimatesWithinFivePercent) {
    for (const unsigned long long n : {0ull, 1ull, 100ull, 5000ull, 200000ull, 2000000ull}) {
        rl_ds s{};
        for (int pass = 0; pass < 3; ++pass)  // each line seen three times
            for (unsigned long long i = 0; i < n; ++i) rl_ds_add(&s, rl_ds_hash(0x7f0000000ull + (pass ? n - 1 - i : i)));
        const double got = static_cast<double>(rl_ds_estimate(&s));
        if (n == 0) EXPECT_EQ(got, 0);
        else EXPECT_NEAR(got, static_cast<double>(n), std::max(1.0, 0.05 * static_cast<double>(n))) << n << " lines";
    }
}

// A marker region's sketch opening by opening (rl_dso): an opening's lines from `first`, `n` of them.
void opening(rl_dso& o, unsigned long long first, unsigned long long n) {
    for (unsigned long long i = 0; i < n; ++i) rl_ds_add(rl_dso_current(&o), rl_ds_hash(0x7f0000000ull + first + i));
    rl_dso_close(&o);
}

std::unique_ptr<rl_dso> openings() {
    auto o = std::make_unique<rl_dso>();  // zeroed
    rl_dso_init(o.get());
    return o;
}

double union_of(const rl_dso& o) { return static_cast<double>(rl_ds_estimate(&o.all)); }

// A region opened once per slab of a large array, each slab its own lines: its union grew with
// every slab and was judged as if re-read (the false note); each opening re-reads only its own.
TEST(DistinctLines, OpeningsOnDisjointSlabsAreEachTheirOwn) {
    auto o = openings();
    for (int k = 0; k < 3; ++k) opening(*o, k * 49152ull, 49152);  // 3 slabs of 3 MiB (64-byte lines)
    EXPECT_NEAR(static_cast<double>(o->working), 49152, 0.06 * 49152);
    EXPECT_NEAR(union_of(*o), 3 * 49152, 0.05 * 3 * 49152);  // the union is still counted
    auto many = openings();
    for (int k = 0; k < 200; ++k) opening(*many, k * 16384ull, 16384);  // 200 slabs, none touched twice
    EXPECT_NEAR(static_cast<double>(many->working), 16384, 0.08 * 16384);
    // a halo shared with the next slab (10% of it) is not a re-read of that slab
    auto halo = openings();
    for (int k = 0; k < 50; ++k) opening(*halo, k * 9000ull, 10000);
    EXPECT_NEAR(static_cast<double>(halo->working), 10000, 0.08 * 10000);
}

// Openings that re-touch data: a time step over the same grid is the grid; one that adds fresh output
// to the grid every step is the grid with two steps' outputs (the previous opening's and its own);
// passes over slabs (an opening per slab) are a pass's slabs, re-read from one pass to the next.
TEST(DistinctLines, OpeningsThatReTouchDataSpanIt) {
    auto steps = openings();
    for (int k = 0; k < 10; ++k) opening(*steps, 0, 30000);
    EXPECT_NEAR(static_cast<double>(steps->working), 30000, 0.05 * 30000);
    auto output = openings();
    for (int k = 0; k < 10; ++k) {
        for (unsigned long long i = 0; i < 30000; ++i) rl_ds_add(rl_dso_current(output.get()), rl_ds_hash(0x7f0000000ull + i));
        opening(*output, 1000000 + k * 5000ull, 5000);
    }
    EXPECT_NEAR(static_cast<double>(output->working), 40000, 0.06 * 40000);
    auto passes = openings();
    for (int pass = 0; pass < 3; ++pass)
        for (int k = 0; k < 8; ++k) opening(*passes, k * 4096ull, 4096);
    EXPECT_NEAR(static_cast<double>(passes->working), 8 * 4096, 0.06 * 8 * 4096);
    auto alternating = openings();  // X, Y, X, Y: each re-read after the other
    for (int k = 0; k < 20; ++k) opening(*alternating, (k % 2) * 100000ull, 20000);
    EXPECT_NEAR(static_cast<double>(alternating->working), 40000, 0.06 * 40000);
    // Passes over 200 tiles of 256 lines, an opening each: a tile is too small to tell against the
    // 51200 lines before it, so tiles are pooled until they can be: the pass, re-read pass after pass.
    auto tiles = openings();
    for (int pass = 0; pass < 3; ++pass)
        for (int k = 0; k < 200; ++k) opening(*tiles, k * 256ull, 256);
    EXPECT_NEAR(static_cast<double>(tiles->working), 51200, 0.05 * 51200);
}

// Pooled or not, tiles never touched again are each their own.
TEST(DistinctLines, ManySmallDisjointOpeningsAreEachTheirOwn) {
    auto tiles = openings();
    for (int k = 0; k < 4000; ++k) opening(*tiles, k * 256ull, 256);
    EXPECT_NEAR(static_cast<double>(tiles->working), 256, 0.1 * 256);
    EXPECT_NEAR(union_of(*tiles), 4000 * 256, 0.05 * 4000 * 256);
}

// An opening that touched nothing changes nothing; one too small to tell against what it is compared
// with (a few lines) is judged on its own lines.
TEST(DistinctLines, EmptyAndTinyOpenings) {
    auto o = openings();
    rl_dso_close(o.get());
    EXPECT_EQ(o->working, 0u);
    EXPECT_EQ(o->openings, 0u);
    opening(*o, 0, 20000);
    rl_dso_close(o.get());  // empty: the previous opening stays the one to compare with
    opening(*o, 0, 20000);
    EXPECT_NEAR(static_cast<double>(o->working), 20000, 0.05 * 20000);
    EXPECT_EQ(o->openings, 2u);
    auto tiny = openings();
    for (int k = 0; k < 300; ++k) opening(*tiny, k * 30ull, 30);
    EXPECT_NEAR(static_cast<double>(tiny->working), 30, 3);
}

} // namespace

// A function's or loop's point has threads 1 (its CPU time summed over its threads), so its note
// was judged at one LLC instance whatever threads ran it: a sweep of 5 MiB split over 8 threads
// on two 2 MiB L3s of 4 cores (the Opteron X4 sheet) re-read 45 MiB from them, and the program
// said 'is 125% of the 2 simulated 2 MiB L3s its 7 threads need' while the function doing all of
// it said nothing (250% of one). It is now judged at the capacity of the threads its program ran
// first, one thread's second, and says which.
TEST(LlcOccupancy, FunctionOfAThreadedProgramHasTheCapacityOfTheProgramsThreads) {
    const auto function_point = [](double dram, double l3, int program_threads) {
        Point p;
        p.name = "sweep";
        p.work = 1e7;
        p.seconds = 0.002;
        p.threads = 1;
        p.details = {{kCacheLlcBytes, 2 * MiB},        {kCacheLlcLevel, 3},
                     {kCacheLlcInstances, 2},          {kCacheLlcCoresPerInstance, 4},
                     {"cache_DRAM_read_bytes", dram},  {"cache_L3_read_bytes", l3},
                     {kCacheEnclosingTouchedBytes, dram}};
        if (program_threads > 0) p.details[kCacheEnclosingThreads] = program_threads;
        return p;
    };
    const auto parallel = llc_near_full(function_point(5 * MiB, 45 * MiB, 8));
    ASSERT_TRUE(parallel);
    EXPECT_TRUE(parallel->threads_of_enclosing);
    EXPECT_EQ(parallel->threads, 8);
    EXPECT_EQ(parallel->instances_used, 2);
    EXPECT_NEAR(parallel->share, 1.25, 1e-9);
    EXPECT_EQ(llc_near_full_text(*parallel),
              "the data it touched (at least 5 MiB) is 125% of the 2 simulated 2 MiB L3s the 8 threads the program "
              "ran need (4 cores share one; which of them ran this code is not counted: on one thread it is 250% of "
              "one); a real L3 (shared, not LRU) spills some of it: DRAM bytes here are a lower bound");
    // Without the program's threads (an older measure's points): one instance, 250%, no note.
    EXPECT_FALSE(llc_near_full(function_point(5 * MiB, 45 * MiB, 0)));
    // A serial function's 1.2 MiB in that program: 30% of two, 60% of one: one thread's note, said so.
    const auto serial = llc_near_full(function_point(1.2 * MiB, 12 * MiB, 8));
    ASSERT_TRUE(serial);
    EXPECT_FALSE(serial->threads_of_enclosing);
    EXPECT_EQ(serial->instances_used, 1);
    EXPECT_NE(llc_near_full_text(*serial).find("fills 60% of the simulated 2 MiB L3 (one of 2: taken as one "
                                               "thread's; the program ran 8 threads, and which of them ran this code "
                                               "is not counted)"),
              std::string::npos)
        << llc_near_full_text(*serial);
    // A program of 3 threads fits one instance's 4 cores: one instance, and said so.
    const auto three = llc_near_full(function_point(1.2 * MiB, 12 * MiB, 3));
    ASSERT_TRUE(three);
    EXPECT_NE(llc_near_full_text(*three).find("(one of 2: the 3 threads the program ran fit the 4 cores sharing one)"),
              std::string::npos)
        << llc_near_full_text(*three);
    // The tool's output gives functions the program's threads, and apply_counts writes them.
    using namespace roofline::measure;
    const auto r = parse_vgtool_json(R"J({"schema": "roofline.vgtool/1", "regions": [
        {"name": "(program)", "calls": 1, "threads": 8, "cache_touched": 5259328}],
        "functions": [{"name": "sweep", "bytes_loaded": 16, "bytes_stored": 8}],
        "cache_model": {"cores": 8, "placement": "round-robin", "threads": [], "levels": [
          {"name": "L1", "size": 65536, "ways": 8, "line": 64, "shared_by": 1},
          {"name": "L2", "size": 524288, "ways": 8, "line": 64, "shared_by": 1},
          {"name": "L3", "size": 2097152, "ways": 8, "line": 64, "shared_by": 4}]}})J",
                                     "v.json");
    ASSERT_EQ(r.functions.size(), 1u);
    EXPECT_EQ(r.functions[0].cache_enclosing_threads, 8);
    Point f;
    apply_counts(f, r.functions[0]);
    EXPECT_DOUBLE_EQ(f.details.at(kCacheEnclosingThreads), 8);
    Point region;
    apply_counts(region, r.regions[0]);
    EXPECT_EQ(region.details.count(kCacheEnclosingThreads), 0u);  // a region has its own threads
}
