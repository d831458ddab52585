// The cache hierarchy `roofline measure` hands the Valgrind tool (measure/cache_hierarchy).
#include "measure/cache_hierarchy.hpp"

#include <gtest/gtest.h>

#include <stdexcept>

namespace roofline::measure {
namespace {

CacheLevel level(int n, std::uint64_t size, int ways, int shared) {
    CacheLevel c;
    c.level = n;
    c.size_bytes = size;
    c.line_bytes = 64;
    c.associativity = ways;
    c.shared_by_cores = shared;
    return c;
}

TEST(SimulatedHierarchy, AmdLastLevelIsAVictimCache) {
    const std::vector<CacheLevel> zen3 = {level(1, 32 << 10, 8, 1), level(2, 512 << 10, 8, 1),
                                          level(3, 32 << 20, 16, 8)};
    const auto amd = simulated_hierarchy(zen3, "AuthenticAMD", 8);
    EXPECT_EQ(amd.option, "32768:8:64:1,524288:8:64:1,33554432:16:64:8:victim");
    EXPECT_EQ(amd.description, "L1 32 KiB 8-way, L2 512 KiB 8-way, L3 32 MiB 16-way victim (shared by 8)");
    EXPECT_TRUE(amd.notes.empty());
    const auto intel = simulated_hierarchy(zen3, "GenuineIntel", 8);
    EXPECT_EQ(intel.option, "32768:8:64:1,524288:8:64:1,33554432:16:64:8");
}

TEST(SimulatedHierarchy, WhatCannotBeSimulatedAsIsIsSaid) {
    // Unknown ways, a fully associative level, a size that is not whole sets.
    const std::vector<CacheLevel> odd = {level(1, 48 << 10, 0, 1), level(2, 1280 << 10, -1, 1),
                                         level(3, 30000000, 20, 4)};
    const auto h = simulated_hierarchy(odd, "GenuineIntel", 4);
    EXPECT_EQ(h.option, "49152:8:64:1,1310720:64:64:1,29999360:20:64:4");
    ASSERT_EQ(h.notes.size(), 3u);
    EXPECT_EQ(h.notes[0], "L1 associativity unknown: 8 ways assumed");
    EXPECT_EQ(h.notes[1], "L2 fully associative: simulated with 64 ways");
    EXPECT_NE(h.notes[2].find("L3 of 30000000 B simulated as 29999360 B"), std::string::npos) << h.notes[2];
}

TEST(SimulatedHierarchy, NothingToSimulateIsAnError) {
    EXPECT_THROW(simulated_hierarchy({}, "AuthenticAMD", 1), std::invalid_argument);
    EXPECT_THROW(simulated_hierarchy({level(1, 0, 8, 1)}, "AuthenticAMD", 1), std::invalid_argument);
}

// Found by a hostile sweep: these crashed the tool after the program had run natively.
TEST(SimulatedHierarchy, WhatTheToolCannotTakeIsRefusedBeforeAnythingRuns) {
    auto message = [](std::vector<CacheLevel> caches, int cores = 1) {
        try {
            simulated_hierarchy(caches, "AuthenticAMD", cores);
        } catch (const std::invalid_argument& e) {
            return std::string(e.what());
        }
        return std::string("accepted");
    };
    auto odd_line = level(1, 32768, 8, 1);
    odd_line.line_bytes = 48;
    EXPECT_NE(message({odd_line}).find("L1 line of 48 B"), std::string::npos);
    EXPECT_NE(message({level(1, 32, 8, 1)}).find("smaller than one 64-byte line"), std::string::npos);
    EXPECT_NE(message({level(2, 1 << 20, 8, 1), level(3, 8 << 20, 8, 1)}).find("must be L1, L2"), std::string::npos);
    EXPECT_NE(message({level(1, 32768, 8, 1), level(1, 65536, 8, 1)}).find("(found L1, L1)"), std::string::npos);
    // 4 GiB private L2s on 1024 cores: 512 GiB of tags.
    EXPECT_NE(message({level(1, 32768, 8, 1), level(2, 4ull << 30, 8, 1)}, 1024).find("memory for the tool's tags"),
              std::string::npos);
    EXPECT_EQ(message({level(1, 32768, 8, 1), level(2, 4ull << 30, 8, 1)}, 1), "accepted");
}

// Each CPU by OS number gets its core's logical index: two hardware threads per core
// numbered as Linux numbers them on x86 (CPU n and n + cores are siblings).
TEST(CpuCoreMap, HardwareThreadsShareTheirCore) {
    std::vector<CoreDetail> cores(3);
    for (int c = 0; c < 3; ++c) {
        cores[c].index = c;
        cores[c].pu_os_indices = {c, c + 3};
    }
    EXPECT_EQ(cpu_core_map(cores, 3), "0,1,2,0,1,2");
    EXPECT_EQ(cpu_core_map(cores, 2), "0,1,,0,1") << "a core the simulator does not have: its CPUs left out";
    cores[1].pu_os_indices = {7};  // CPUs 1 and 4 offline
    EXPECT_EQ(cpu_core_map(cores, 3), "0,,2,0,,2,,1");
    EXPECT_EQ(cpu_core_map({}, 4), "");
}

} // namespace
} // namespace roofline::measure
