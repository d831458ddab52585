#include "core/node_memory_check.hpp"

#include <gtest/gtest.h>

namespace roofline {
namespace {

constexpr std::uint64_t kGiB = 1ULL << 30;
constexpr std::uint64_t kMiB = 1ULL << 20;

TEST(NodeMemoryCheck, OneNodeFarShortOfMemTotalIsSaid) {
    // The KVM guest seen: one node reporting 5.96 GiB of a 23.5 GiB MemTotal.
    const std::string text = node_memory_shortfall({6252748ULL * 1024}, 24684084ULL * 1024);
    EXPECT_NE(text.find("the NUMA node reports 5.96 GiB"), std::string::npos) << text;
    EXPECT_NE(text.find("the kernel manages 23.5 GiB"), std::string::npos) << text;
    EXPECT_NE(text.find("17.6 GiB is on no node's count"), std::string::npos) << text;
    EXPECT_NE(text.find("the node figure above is not"), std::string::npos) << text;
}

TEST(NodeMemoryCheck, NodesThatAddUpToMemTotalAreNotQuestioned) {
    // Two nodes of 16 GiB each, the kernel's reservations leaving MemTotal a little above their sum.
    EXPECT_EQ(node_memory_shortfall({16 * kGiB - 300 * kMiB, 16 * kGiB - 200 * kMiB}, 32 * kGiB - 400 * kMiB), "");
    // Exactly at the threshold is still believed.
    EXPECT_EQ(node_memory_shortfall({9 * kGiB}, 10 * kGiB), "");
}

TEST(NodeMemoryCheck, SeveralNodesShortAreNamedInThePlural) {
    const std::string text = node_memory_shortfall({2 * kGiB, 2 * kGiB}, 16 * kGiB);
    EXPECT_NE(text.find("the NUMA nodes report 4 GiB"), std::string::npos) << text;
    EXPECT_NE(text.find("12 GiB is on no node's count"), std::string::npos) << text;
    EXPECT_NE(text.find("the node figures above are not"), std::string::npos) << text;
}

TEST(NodeMemoryCheck, UnknownFiguresJudgeNothing) {
    EXPECT_EQ(node_memory_shortfall({}, 16 * kGiB), "");
    EXPECT_EQ(node_memory_shortfall({0}, 16 * kGiB), "");
    EXPECT_EQ(node_memory_shortfall({4 * kGiB}, 0), "");
}

} // namespace
} // namespace roofline
