// Memory roofs that contradict each other (core/roof_consistency.hpp), the
// level an explicit working set falls in, and the bench summary's notes.
#include "bench/memory_bench.hpp"
#include "core/roof_consistency.hpp"
#include "render/bench_summary.hpp"

#include <gtest/gtest.h>

namespace roofline {
namespace {

MemoryRoof roof(const std::string& level, const std::string& pattern, int threads, double gbs) {
    MemoryRoof r;
    r.level = level;
    r.pattern = pattern;
    r.threads = threads;
    r.gbs = gbs;
    return r;
}

TEST(RoofConsistency, TheGuestsDramCopyIsFlagged) {
    // Stored by the quick start on the bhyve guest: DRAM copy 1.4 GB/s at 1 thread, 62.5 at 2.
    const std::vector<MemoryRoof> roofs{roof("DRAM", "load", 1, 25), roof("DRAM", "copy", 1, 1.4),
                                        roof("DRAM", "load", 2, 40), roof("DRAM", "copy", 2, 62.5)};
    const auto suspects = inconsistent_memory_roofs(roofs);
    ASSERT_EQ(suspects.size(), 1u);
    EXPECT_EQ(suspects[0].index, 1u);
    EXPECT_NE(suspects[0].reason.find("1.4 GB/s"), std::string::npos) << suspects[0].reason;
}

TEST(RoofConsistency, ATeamFarBelowOneThreadIsFlagged) {
    const std::vector<MemoryRoof> roofs{roof("L3", "load", 1, 100), roof("L3", "load", 2, 40)};
    const auto suspects = inconsistent_memory_roofs(roofs);
    ASSERT_EQ(suspects.size(), 1u);
    EXPECT_EQ(suspects[0].index, 1u);
    EXPECT_NE(suspects[0].reason.find("under half"), std::string::npos) << suspects[0].reason;
}

TEST(RoofConsistency, AnOrdinaryModelHasNoSuspects) {
    // This Zen 4 guest's quick run: L1 store-heavy patterns are slower by design, one
    // thread gets about half of the DRAM two reach.
    const std::vector<MemoryRoof> roofs{
        roof("L1", "load", 1, 233), roof("L1", "copy", 1, 118), roof("L1", "store", 1, 59),
        roof("L2", "load", 1, 118), roof("L3", "load", 1, 100),  roof("DRAM", "load", 1, 31),
        roof("DRAM", "copy", 1, 30), roof("DRAM", "store", 1, 12), roof("L1", "load", 2, 465),
        roof("DRAM", "load", 2, 55), roof("DRAM", "copy", 2, 39)};
    EXPECT_TRUE(inconsistent_memory_roofs(roofs).empty());
}

TEST(WorkingSetLevel, ExplicitSizesAreNamedByTheCheckedLevel) {
    std::vector<CacheLevel> caches(3);
    caches[0].level = 1, caches[0].size_bytes = 32 << 10;
    caches[1].level = 2, caches[1].size_bytes = 1 << 20;
    caches[2].level = 3, caches[2].size_bytes = 32 << 20, caches[2].shared_by_cores = 2;
    EXPECT_EQ(level_of_working_set(caches, 1, 16 << 10), "L1");
    EXPECT_EQ(level_of_working_set(caches, 1, 256 << 10), "L2");
    EXPECT_EQ(level_of_working_set(caches, 1, 8 << 20), "L3");
    EXPECT_EQ(level_of_working_set(caches, 2, 20 << 20), "DRAM");  // half of the shared L3 each
    EXPECT_EQ(level_of_working_set(caches, 1, 1ull << 30), "DRAM");
}

TEST(BenchSummary, OneBurstNotesAreCountedUnlessVerbose) {
    MachineModel m;
    m.cpu.model = "test CPU";
    for (int i = 0; i < 5; ++i)
        m.environment.warnings.push_back("unconfirmed figure: L" + std::to_string(i) + " load (one burst)");
    m.environment.warnings.push_back("cache hierarchy: L3 is reported as 508 MiB per core");
    const std::string quiet = format_bench_summary(m);
    EXPECT_NE(quiet.find("5 figures rest on one burst each"), std::string::npos) << quiet;
    EXPECT_EQ(quiet.find("unconfirmed figure: L3"), std::string::npos) << quiet;
    EXPECT_NE(quiet.find("508 MiB"), std::string::npos) << quiet;
    const std::string verbose = format_bench_summary(m, true);
    EXPECT_NE(verbose.find("unconfirmed figure: L3"), std::string::npos) << verbose;
}

// Roofs kept at a clock read again next to them (bench's limit guard): two notes are shown as
// they are; more are one line naming the roofs, each note in full with --verbose.
TEST(BenchSummary, RoofsKeptAtAClockReadAgainAreCountedUnlessVerbose) {
    MachineModel m;
    m.cpu.model = "test CPU";
    const auto note = [](const std::string& name) {
        return name + ": " + kClockRemeasuredNextToRoof + ": 87.7 GFLOP/s came out 1.04x its limit (84.3) ...; kept";
    };
    m.environment.warnings = {note("dp 512-bit fma, 1 thread"), note("L1 load 1 thread")};
    const std::string two = format_bench_summary(m);
    EXPECT_NE(two.find(note("L1 load 1 thread")), std::string::npos) << two;
    m.environment.warnings.push_back(note("sp 512-bit fma, 2 threads"));
    const std::string three = format_bench_summary(m);
    EXPECT_NE(three.find("3 roofs came out above their limit at the clock measured before the run and were kept, "
                         "each under its limit at the clock read again next to it (dp 512-bit fma, 1 thread; L1 load "
                         "1 thread; sp 512-bit fma, 2 threads)"),
              std::string::npos)
        << three;
    EXPECT_EQ(three.find("87.7 GFLOP/s"), std::string::npos) << three;
    EXPECT_NE(format_bench_summary(m, true).find(note("sp 512-bit fma, 2 threads")), std::string::npos);
}

} // namespace
} // namespace roofline

namespace roofline {
namespace {

TEST(RoofConsistency, RoofsAboveTheHardwareAreRefusedByName) {
    MachineModel m;
    ComputeRoof gutted;
    gutted.name = "dp 512-bit fma, 1 thread";
    gutted.gflops = 120;
    gutted.theoretical_gflops = 59.1;  // twice what the pipes allow: a loop the compiler dropped
    ComputeRoof at_theory = gutted;
    at_theory.name = "dp 512-bit fma+add, 1 thread";
    at_theory.gflops = 89.5;
    at_theory.theoretical_gflops = 88.7;  // within the clock's error
    m.compute = {gutted, at_theory};
    MemoryRoof l1 = roof("L1", "load", 1, 260);
    l1.theoretical_gbs = 236.4;
    MemoryRoof dram = roof("DRAM", "load", 1, 31);  // no theory: kept
    m.memory = {l1, dram};
    const auto refused = refuse_roofs_above_theory(m);
    ASSERT_EQ(refused.size(), 2u);
    EXPECT_NE(refused[0].find("dp 512-bit fma, 1 thread"), std::string::npos) << refused[0];
    EXPECT_NE(refused[1].find("L1 load 1 thread"), std::string::npos) << refused[1];
    ASSERT_EQ(m.compute.size(), 1u);
    EXPECT_EQ(m.compute[0].name, "dp 512-bit fma+add, 1 thread");
    ASSERT_EQ(m.memory.size(), 1u);
    EXPECT_EQ(m.memory[0].level, "DRAM");
}

std::vector<MemoryRoof> zen4_quick_roofs() {
    return {roof("L1", "load", 1, 233), roof("L1", "copy", 1, 118), roof("L1", "store", 1, 59),
            roof("L2", "load", 1, 118), roof("L2", "copy", 1, 100), roof("L3", "load", 1, 100),
            roof("DRAM", "load", 1, 31),  roof("DRAM", "copy", 1, 30), roof("DRAM", "store", 1, 12),
            roof("L1", "load", 2, 465),   roof("DRAM", "load", 2, 55), roof("DRAM", "copy", 2, 39),
            roof("PCIe", "load", 1, 500)};  // a bus is no level the core's data passes through
}

TEST(RoofConsistency, AnOuterLevelFasterThanTheInnerOnesIsRefused) {
    MachineModel m;
    m.memory = zen4_quick_roofs();
    EXPECT_TRUE(refuse_outer_levels_faster_than_inner(m).empty());
    EXPECT_EQ(m.memory.size(), zen4_quick_roofs().size());
    // DRAM edited 100x: 3100 GB/s beside an L1 of 233 at the same pattern and threads.
    m.memory[6].gbs *= 100;
    const auto refused = refuse_outer_levels_faster_than_inner(m);
    ASSERT_EQ(refused.size(), 1u);
    EXPECT_NE(refused[0].find("DRAM load 1 thread: 3100.0 GB/s is 13.30x the 233.0 GB/s of L1 load"), std::string::npos)
        << refused[0];
    EXPECT_EQ(m.memory.size(), zen4_quick_roofs().size() - 1);
    // One inner roof measured low takes down no outer one: they are compared with the fastest inner.
    m.memory = zen4_quick_roofs();
    m.memory[3].gbs = 1.2;  // L2 load
    EXPECT_TRUE(refuse_outer_levels_faster_than_inner(m).empty());
}

// This Zen 5 guest's bench --quick roofs at 2 threads (2026-11-29), copy pattern.
std::vector<MemoryRoof> zen5_copy_roofs() {
    return {roof("L1", "copy", 2, 1030.5), roof("L2", "copy", 2, 445.0), roof("L3", "copy", 2, 221.2),
            roof("DRAM", "copy", 2, 50.3)};
}

TEST(RoofConsistency, AnOuterLevelWellAboveTheLevelBeforeItAndAnotherIsRefused) {
    MachineModel m;
    m.memory = zen5_copy_roofs();
    EXPECT_TRUE(refuse_outer_levels_faster_than_inner(m).empty());
    // DRAM edited 10x: 503 GB/s is under 1.5x L1's 1030, but 2.27x L3's and above L2's too.
    m.memory[3].gbs *= 10;
    const auto refused = refuse_outer_levels_faster_than_inner(m);
    ASSERT_EQ(refused.size(), 1u);
    EXPECT_NE(refused[0].find("DRAM copy 2 threads: 503.0 GB/s is 2.27x the 221.2 GB/s of L3 copy, the level before "
                              "it, and above the 445.0 GB/s of L2 copy too"),
              std::string::npos)
        << refused[0];
    ASSERT_EQ(m.memory.size(), 3u);
    EXPECT_EQ(m.memory.back().level, "L3");
    // One witness is not enough: L3 measured 5x low leaves DRAM above it by 1.1x only, and an
    // L2 measured low under an L3 that is above no other level refuses nothing.
    m.memory = zen5_copy_roofs();
    m.memory[2].gbs = 44.2;
    EXPECT_TRUE(refuse_outer_levels_faster_than_inner(m).empty());
    m.memory = zen5_copy_roofs();
    m.memory[1].gbs = 100;  // L2 low: L3's 221 is 2.2x it, but under L1's 1030
    EXPECT_TRUE(refuse_outer_levels_faster_than_inner(m).empty());
}

// This Zen 5 guest's bench --quick (2026-11-28): caches 48 KiB, 1 MiB, 32 MiB; the probe's
// one-thread load curve over them.
MachineModel zen5_with_probe() {
    MachineModel m;
    m.caches = {{1, 48 << 10, 64, 12, 1, 2}, {2, 1 << 20, 64, 16, 1, 2}, {3, 32 << 20, 64, 16, 2, 1}};
    m.cache_probe = {"load", "avx512", 1,
                     {{8192, 546.6},    {16384, 552.9},   {20480, 559.5},   {81920, 236.1},   {131072, 207.8},
                      {164864, 210.3},  {207872, 204.2},  {262144, 186.2},  {330240, 219.0},  {524288, 218.0},
                      {660480, 264.6},  {1048576, 158.5}, {2097152, 118.1}, {2641920, 113.2}, {4194304, 109.0},
                      {8388608, 126.9}, {13315584, 130.0}, {16777216, 126.3}, {33554432, 100.5}}};
    m.memory = {roof("L1", "load", 1, 546.8), roof("L2", "load", 1, 225.5), roof("L3", "load", 1, 125.7),
                roof("DRAM", "load", 1, 44.3), roof("L2", "load", 2, 481.5), roof("L2", "copy", 1, 230.1)};
    return m;
}

TEST(RoofConsistency, OneThreadLoadRoofsAgreeWithTheCacheProbe) {
    auto m = zen5_with_probe();
    EXPECT_TRUE(roofs_against_cache_probe(m).empty());

    // L2's roof measured while another process had the core: 120 GB/s where the curve reads ~210.
    m.memory[1].gbs = 120;
    auto said = roofs_against_cache_probe(m);
    ASSERT_EQ(said.size(), 1u);
    EXPECT_NE(said[0].find("L2 load 1 thread: the roof, 120.0 GB/s, is 57% of the 209.1 GB/s"), std::string::npos)
        << said[0];
    EXPECT_NE(said[0].find("measured low"), std::string::npos);

    // An "L3" roof at L2's speed: its working set sat in L2.
    m = zen5_with_probe();
    m.memory[2].gbs = 226;
    m.memory[2].working_set_bytes = 768 << 10;
    said = roofs_against_cache_probe(m);
    ASSERT_EQ(said.size(), 1u);
    EXPECT_NE(said[0].find("L3 load 1 thread: the roof, 226.0 GB/s, is 1.8x the 122.2 GB/s"), std::string::npos) << said[0];
    EXPECT_NE(said[0].find("(768 KiB) most likely sat in a faster level"), std::string::npos) << said[0];

    // Other patterns, teams, DRAM (the probe does not reach it for sure): not judged.
    m = zen5_with_probe();
    m.memory[3].gbs = 1;
    m.memory[4].gbs = 10;
    m.memory[5].gbs = 10;
    EXPECT_TRUE(roofs_against_cache_probe(m).empty());

    // No probe, or too few of its points on a level: nothing said.
    m.memory[1].gbs = 50;
    auto few = m;
    few.cache_probe.points.resize(6);  // L1's and two of L2's
    EXPECT_TRUE(roofs_against_cache_probe(few).empty());
    m.cache_probe.points.clear();
    EXPECT_TRUE(roofs_against_cache_probe(m).empty());
}

// Where the probe reached past twice the last cache (its reach is four times it), DRAM's load
// roof is held against those points: this Zen 5 guest's curve read 59.7 to 46.8 GB/s over 64-128
// MiB (a 32 MiB L3), its DRAM load roof 42.7 GB/s (0.82 of their median): agreed.
TEST(RoofConsistency, DramLoadRoofAgreesWithTheProbePastTheLastCache) {
    auto m = zen5_with_probe();
    for (auto [bytes, gbs] : std::vector<std::pair<std::uint64_t, double>>{
             {42275840, 91.97}, {53263872, 77.60}, {67108864, 59.69}, {84551680, 54.31}, {106528256, 50.26},
             {134217728, 46.83}})
        m.cache_probe.points.push_back({bytes, gbs});
    m.memory[3].gbs = 42.7;
    EXPECT_TRUE(roofs_against_cache_probe(m).empty());

    // Measured low: 20 GB/s, 38% of the 52.3 GB/s median of the four points past 64 MiB.
    m.memory[3].gbs = 20;
    auto said = roofs_against_cache_probe(m);
    ASSERT_EQ(said.size(), 1u);
    EXPECT_NE(said[0].find("DRAM load 1 thread: the roof, 20.0 GB/s, is 38% of the 52.3 GB/s the cache probe read "
                           "over 64 MiB and beyond (twice the last cache, 32 MiB) (its median, 4 points)"),
              std::string::npos)
        << said[0];
    EXPECT_NE(said[0].find("measured low"), std::string::npos);

    // A "DRAM" roof at L3's speed: its working set sat in a cache.
    m.memory[3].gbs = 110;
    m.memory[3].working_set_bytes = 24 << 20;
    said = roofs_against_cache_probe(m);
    ASSERT_EQ(said.size(), 1u);
    EXPECT_NE(said[0].find("is 2.1x the 52.3 GB/s"), std::string::npos) << said[0];
    EXPECT_NE(said[0].find("(24 MiB) most likely sat in a cache, so it is not DRAM's figure"), std::string::npos)
        << said[0];

    // One point past twice the last cache is too few to judge by; another pattern or a team is not judged.
    m.cache_probe.points.resize(m.cache_probe.points.size() - 3);
    EXPECT_TRUE(roofs_against_cache_probe(m).empty());
}

} // namespace
} // namespace roofline
