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

} // namespace
} // namespace roofline
