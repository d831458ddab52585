#include "core/byte_sizes.hpp"
#include "core/working_sets.hpp"

#include <gtest/gtest.h>

using namespace roofline;

namespace {
// A Zen 4-like part: private 32 KiB L1 and 1 MiB L2 per core, 32 MiB L3 shared by 8 cores.
std::vector<CacheLevel> zen4(int cores) {
    return {{1, 32 * 1024, 64, 8, 1, cores}, {2, 1024 * 1024, 64, 8, 1, cores}, {3, 32u << 20, 64, 16, 8, 1}};
}
} // namespace

TEST(WorkingSets, PerThreadCapacity) {
    const CacheLevel l3{3, 32u << 20, 64, 16, 8, 1};
    EXPECT_EQ(per_thread_capacity(l3, 1), 32u << 20);
    EXPECT_EQ(per_thread_capacity(l3, 2), 16u << 20);
    EXPECT_EQ(per_thread_capacity(l3, 8), 4u << 20);
    const CacheLevel l1{1, 32 * 1024, 64, 8, 1, 2};
    EXPECT_EQ(per_thread_capacity(l1, 2), 32u * 1024);
}

TEST(WorkingSets, EveryLevelGetsSizesInsideIt) {
    const auto levels = choose_working_sets(zen4(2), 1, 3, 1ull << 30);
    ASSERT_EQ(levels.size(), 4u);
    EXPECT_EQ(levels[0].level, "L1");
    EXPECT_EQ(levels[3].level, "DRAM");
    for (const auto& l : levels) {
        ASSERT_FALSE(l.per_thread_bytes.empty()) << l.level;
        for (std::size_t i = 1; i < l.per_thread_bytes.size(); ++i)
            EXPECT_GT(l.per_thread_bytes[i], l.per_thread_bytes[i - 1]) << l.level;
        for (auto b : l.per_thread_bytes) EXPECT_EQ(b % 4096, 0u);
    }
    EXPECT_EQ(levels[0].per_thread_bytes.size(), 3u);
    // L1 sizes fit in 32 KiB; L2 sizes spill L1 and fit 1 MiB; L3 spills L2.
    EXPECT_LE(levels[0].per_thread_bytes.back(), 32u * 1024);
    EXPECT_GE(levels[1].per_thread_bytes.front(), 64u * 1024);
    EXPECT_LE(levels[1].per_thread_bytes.back(), 1024u * 1024);
    EXPECT_GE(levels[2].per_thread_bytes.front(), 2u << 20);
    EXPECT_LE(levels[2].per_thread_bytes.back(), 32u << 20);
    EXPECT_EQ(levels[3].per_thread_bytes.back(), 1ull << 30);
}

TEST(WorkingSets, SharedLevelShrinksPerThreadWithMoreThreads) {
    const auto one = choose_working_sets(zen4(8), 1, 3, 1ull << 30);
    const auto eight = choose_working_sets(zen4(8), 8, 3, 1ull << 30);
    EXPECT_GT(one[2].per_thread_bytes.back(), eight[2].per_thread_bytes.back());
    EXPECT_EQ(one[0].per_thread_bytes, eight[0].per_thread_bytes);  // private L1 unchanged
    EXPECT_EQ(eight[3].per_thread_bytes.back(), (1ull << 30) / 8);
}

TEST(WorkingSets, ParseAndFormatBytes) {
    EXPECT_EQ(parse_bytes("16kB"), 16u * 1024);
    EXPECT_EQ(parse_bytes("256KiB"), 256u * 1024);
    EXPECT_EQ(parse_bytes("8MB"), 8u << 20);
    EXPECT_EQ(parse_bytes("1GB"), 1ull << 30);
    EXPECT_EQ(parse_bytes("4096"), 4096u);
    EXPECT_THROW(parse_bytes("lots"), std::invalid_argument);
    EXPECT_THROW(parse_bytes("-5kB"), std::invalid_argument);
    EXPECT_THROW(parse_bytes("3 parsecs"), std::invalid_argument);
    // Found by fuzzing: sizes beyond an integer were converted anyway (undefined behaviour).
    EXPECT_THROW(parse_bytes("81e88"), std::invalid_argument);
    EXPECT_THROW(parse_bytes("inf"), std::invalid_argument);
    EXPECT_THROW(parse_bytes("1e30GB"), std::invalid_argument);
    // Plain decimal only (a hostile sweep: "0x20KiB" read as 32 KiB, "1e3KiB" as 1000 KiB).
    EXPECT_THROW(parse_bytes("0x20KiB"), std::invalid_argument);
    EXPECT_THROW(parse_bytes("1e3KiB"), std::invalid_argument);
    EXPECT_THROW(parse_bytes(" 32KiB"), std::invalid_argument);
    EXPECT_THROW(parse_bytes("0.5B"), std::invalid_argument);
    EXPECT_EQ(parse_bytes("1.5kB"), 1536u);
    EXPECT_EQ(format_bytes(32 * 1024), "32 KiB");
    EXPECT_EQ(format_bytes(1ull << 30), "1 GiB");
    EXPECT_EQ(format_bytes(1536 * 1024), "1.5 MiB");
    EXPECT_EQ(format_bytes(100), "100 B");
    EXPECT_EQ(format_bytes(1048560), "1024 KiB");  // never "1.02e+03 KiB"
    EXPECT_EQ(format_bytes(200 * 1024 + 100), "200 KiB");
}
