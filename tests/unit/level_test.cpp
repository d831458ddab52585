#include "core/level.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

using namespace roofline;

TEST(Level, CacheNumbers) {
    EXPECT_EQ(cache_level_number("L1"), 1);
    EXPECT_EQ(cache_level_number("l2"), 2);
    EXPECT_EQ(cache_level_number("L10"), 10);
    EXPECT_FALSE(cache_level_number("L"));
    EXPECT_FALSE(cache_level_number("L2x"));
    EXPECT_FALSE(cache_level_number("DRAM"));
    EXPECT_FALSE(cache_level_number("L99999999999"));  // no overflow
}

TEST(Level, MemoryLevelsAndCustomWorkingSets) {
    for (const char* level : {"L1", "l2", "L4", "DRAM", "dram", "HBM"}) EXPECT_TRUE(is_memory_level(level)) << level;
    for (const char* level : {"L5", "PCIe", "network", "NUMA0->1", "custom", ""})
        EXPECT_FALSE(is_memory_level(level)) << level;
    EXPECT_TRUE(is_custom_working_set("custom"));
    EXPECT_FALSE(is_custom_working_set("Custom"));
    EXPECT_FALSE(is_known_level("custom"));  // no reader takes it as a level: memory roofs of old models only
}

TEST(Level, CanonicalSpelling) {
    EXPECT_EQ(canonical_level("l3"), "L3");
    EXPECT_EQ(canonical_level("dram"), "DRAM");
    EXPECT_EQ(canonical_level("PCIe"), "PCIe");
    EXPECT_EQ(canonical_level("NUMA0->1"), "NUMA0->1");
}

TEST(Level, OrderFromTheCoreOutwards) {
    std::vector<std::string> levels{"PCIe", "DRAM", "L10", "l2", "L1", "L3", "HBM"};
    std::sort(levels.begin(), levels.end(), [](auto& a, auto& b) { return level_before(a, b); });
    EXPECT_EQ(levels, (std::vector<std::string>{"L1", "l2", "L3", "L10", "DRAM", "HBM", "PCIe"}));
    EXPECT_FALSE(level_before("L2", "L2"));
}

TEST(Level, NumaPairs) {
    EXPECT_TRUE(is_numa_pair("NUMA0->1"));
    EXPECT_FALSE(is_numa_pair("DRAM"));
}
