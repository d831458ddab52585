// An MPI job's points against a cluster model (core/cluster_roofline.hpp): names of the nodes'
// shares, which roofline each point goes to, and the sum of the nodes' roofs.
#include "core/cluster_roofline.hpp"

#include <gtest/gtest.h>

namespace roofline {
namespace {

Point named(const std::string& name, std::optional<double> hosts = std::nullopt) {
    Point p;
    p.name = name;
    if (hosts) p.details["mpi_hosts"] = *hosts;
    return p;
}

TEST(ClusterRoofline, NodeShareNamesRoundTrip) {
    EXPECT_EQ(node_point_name("dot", "n1"), "dot [node n1]");
    const auto split = split_node_point_name("solve [x] [node rack-1 [b]]");  // the last tag is the node's
    ASSERT_TRUE(split);
    EXPECT_EQ(split->first, "solve [x]");
    EXPECT_EQ(split->second, "rack-1 [b]");
    EXPECT_FALSE(split_node_point_name("dot"));
    EXPECT_FALSE(split_node_point_name("dot [node ]"));
    EXPECT_FALSE(split_node_point_name("dot [rank 3]"));
    EXPECT_FALSE(split_node_point_name("dot [node a] tail"));
}

TEST(ClusterRoofline, PointsGoToTheirNodeOrTheWhole) {
    const auto a = assign_to_nodes({"a", "b"}, {named("k [node a]"), named("k [node b]"), named("k", 2),
                                                named("k [rank 0]"), named("k [rank 1]"), named("k [node z]"),
                                                named("half", 1), named("plain")});
    ASSERT_EQ(a.by_node.at("a").size(), 1u);
    EXPECT_EQ(a.by_node.at("b").front().name, "k [node b]");
    ASSERT_EQ(a.job.size(), 1u);
    EXPECT_EQ(a.job.front().name, "k");
    ASSERT_EQ(a.not_judged.size(), 4u);  // node z, half, plain, and one line for both rank shares
    EXPECT_NE(a.not_judged.back().find("2 MPI rank share(s)"), std::string::npos);
    // One node: its own job's points and plain points are that node's.
    const auto one = assign_to_nodes({"solo"}, {named("k", 1), named("plain")});
    EXPECT_EQ(one.by_node.at("solo").size(), 2u);
    EXPECT_TRUE(one.job.empty());
}

Roofline node(double peak, double dram, double l3, const std::string& dram_name = "DRAM load") {
    Roofline r;
    r.precision = "dp";
    r.threads = 4;
    r.compute = {"DP peak", "", peak, 0.01};
    r.bandwidth = {{"L3 load", "L3", l3, 0.02}, {dram_name, "DRAM", dram, 0.03}};
    r.ceilings = {{"no FMA", CeilingKind::compute, "fma", "", peak / 2, ""}};
    return r;
}

TEST(ClusterRoofline, TheWholeIsTheSumOfTheNodes) {
    auto b = node(50, 10, 40, "DRAM copy");
    b.bandwidth.erase(b.bandwidth.begin());  // no L3 roof on node b: the sum has none
    const auto sum = aggregate_roofline({node(100, 20, 80), b}, "all 2 nodes");
    EXPECT_EQ(sum.label, "all 2 nodes");
    EXPECT_DOUBLE_EQ(sum.compute.value, 150);
    EXPECT_EQ(sum.threads, 8);
    ASSERT_EQ(sum.bandwidth.size(), 1u);
    EXPECT_EQ(sum.bandwidth.front().level, "DRAM");
    EXPECT_DOUBLE_EQ(sum.bandwidth.front().value, 30);
    EXPECT_EQ(sum.bandwidth.front().name, "DRAM (each node's best pattern)");  // the patterns differ
    EXPECT_DOUBLE_EQ(sum.bandwidth.front().spread, 0.03);
    ASSERT_EQ(sum.ceilings.size(), 1u);
    EXPECT_DOUBLE_EQ(sum.ceilings.front().value, 75);
    EXPECT_THROW(aggregate_roofline({}, "none"), std::invalid_argument);
    auto sp = node(1, 1, 1);
    sp.precision = "sp";
    EXPECT_THROW(aggregate_roofline({node(1, 1, 1), sp}, "mixed"), std::invalid_argument);
}

} // namespace
} // namespace roofline
